import { createHash } from "node:crypto";
import type { Executor } from "../store/sql/executor";

/** How often a replica reads which replicas run checkers. */
export const OWNERS_MS = 1_000;
/** A read of the checkers older than this is not trusted: every due check is tried (the lease decides). */
const STALE_MS = 5_000;

/**
 * Which replica tries each monitor's checks, when several share one database: the monitor's
 * owner by rendezvous hashing over the live checkers (the processes holding a checker's lock,
 * `Executor.checkers`; a process that dies leaves at once, a machine that vanishes when its
 * session's keepalives end it). The others skip its due checks, so that two replicas do not both
 * claim every lease. A replica added takes monitors from every other; one gone leaves its own to
 * the others, each to one. The lease stays the safety net: whenever two replicas think they own
 * a monitor (their reads of the checkers differ for a moment), one of them runs its check.
 */
export class CheckOwners {
  /** The live checkers' tokens, sorted; undefined: every monitor is this replica's. */
  private members: number[] | undefined;
  private readAt = 0;
  private timer?: NodeJS.Timeout;
  /** Owners worked out for the current members, by monitor. */
  private readonly owned = new Map<string, boolean>();

  constructor(
    private readonly db: Executor,
    /** Called when the monitors this replica owns may have changed. */
    private readonly changed: () => void,
    private readonly failed: (err: Error) => void,
  ) {}

  /** Joins the checkers and reads them, then again every `OWNERS_MS`. */
  async start(): Promise<void> {
    await this.db.joinCheckers(true);
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch(this.failed), OWNERS_MS).unref();
  }

  /** Leaves the checkers: the others take this replica's monitors at their next read. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.db.joinCheckers(false).catch(() => undefined);
  }

  /** Reads the live checkers; tells `changed` when they differ from the last read. */
  async refresh(): Promise<void> {
    const tokens = await this.db.checkers();
    this.readAt = Date.now();
    // Alone, or not among them (its lock's session lost): every monitor is this replica's.
    const members =
      tokens && tokens.length > 1 && tokens.includes(this.db.processToken)
        ? [...tokens].sort((a, b) => a - b)
        : undefined;
    if (String(members) === String(this.members)) return;
    this.members = members;
    this.owned.clear();
    this.changed();
  }

  /** Whether this replica tries the checks of `monitorId`: it owns it, or its read of the checkers is too old to tell. */
  mine(monitorId: string): boolean {
    const members = this.members;
    if (!members || Date.now() - this.readAt > STALE_MS) return true;
    let mine = this.owned.get(monitorId);
    if (mine === undefined) {
      let best = -1;
      let owner = 0;
      for (const token of members) {
        const score = createHash("sha1").update(`${token}/${monitorId}`).digest().readUIntBE(0, 6);
        if (score > best) [best, owner] = [score, token];
      }
      mine = owner === this.db.processToken;
      this.owned.set(monitorId, mine);
    }
    return mine;
  }
}
