import type { LeaseClaim } from "../store/check-leases";
import { BatchWindow } from "./batch-window";

/** One check's claim waiting for the next statement. */
interface Waiting {
  claim: LeaseClaim;
  /** When it was made (`performance.now()`). */
  at: number;
  resolve: (granted: { value: unknown } | undefined) => void;
  reject: (err: unknown) => void;
}

/** Claims taken by one statement at most. */
const MAX_BATCH = 256;
/**
 * How long a claim waits for others to join its statement. The timers of a checker that keeps up
 * fire a few at a time, so batches of one turn of the event loop held two or three claims; this
 * wait is a hundredth of the shortest interval.
 */
const WINDOW_MS = 10;

/** Claims that one statement may take together: the same holder and the same window. */
const group = (c: LeaseClaim) => `${c.intervalMs - c.slackMs}/${c.holder}`;

/**
 * Takes the checks' leases in batches, one statement at a time: the claims made within
 * `WINDOW_MS` of the first, or while a statement runs, are the next one. Each lease taken was one
 * round trip per check, the most frequent statement of a replica; the busier the checker, the
 * larger its batches. A batch holds each monitor once, and
 * claims of monitors with different windows (intervals) go in statements of their own. Should a
 * statement fail, each of its claims is taken again by a statement of its own, so that one
 * failure fails only its own check.
 */
export class ClaimBatch {
  private readonly batches = new BatchWindow<Waiting>(WINDOW_MS, (waiting) => this.take(this.next(waiting)));

  constructor(
    /** Takes these claims (one holder, one window) in one statement: the values of those granted, by monitor. */
    private readonly many: (claims: readonly LeaseClaim[]) => Promise<Map<string, unknown>>,
    /** Takes one claim by itself (after its batch's statement failed). */
    private readonly one: (claim: LeaseClaim) => Promise<{ value: unknown } | undefined>,
  ) {}

  /** Takes `claim` in the next batch: the value read with it when granted, undefined when not. */
  claim(claim: LeaseClaim): Promise<{ value: unknown } | undefined> {
    return new Promise((resolve, reject) => {
      this.batches.add({ claim, at: performance.now(), resolve, reject });
    });
  }

  /** The next batch: the claims of the oldest claim's group, each monitor once, up to `MAX_BATCH`. */
  private next(waiting: Waiting[]): Waiting[] {
    const key = group((waiting[0] as Waiting).claim);
    const batch: Waiting[] = [];
    const monitors = new Set<string>();
    const rest: Waiting[] = [];
    for (const w of waiting) {
      if (batch.length < MAX_BATCH && group(w.claim) === key && !monitors.has(w.claim.monitorId)) {
        monitors.add(w.claim.monitorId);
        batch.push(w);
      } else rest.push(w);
    }
    waiting.splice(0, waiting.length, ...rest);
    return batch;
  }

  private async take(batch: Waiting[]): Promise<void> {
    let granted: Map<string, unknown>;
    try {
      granted = await this.many(batch.map((w) => w.claim));
    } catch {
      await Promise.all(
        batch.map((w) =>
          this.one(w.claim).then(
            (g) => w.resolve(g),
            (err: unknown) => w.reject(err),
          ),
        ),
      );
      return;
    }
    for (const w of batch)
      w.resolve(granted.has(w.claim.monitorId) ? { value: granted.get(w.claim.monitorId) } : undefined);
  }
}
