import { randomUUID } from "node:crypto";
import type { Store } from "../store";
import type { LeaseClaim } from "../store/check-leases";
import type { CheckRead, ScheduledMonitor } from "../store/monitors";
import { ClaimBatch } from "./claim-batch";

/** Longest timer jitter tolerated between two replicas' schedules of one monitor. */
const SLACK_MS = 2_000;
/** The jitter tolerated for a monitor checked every `intervalMs`: a tenth of it, `SLACK_MS` at most. */
function slackMs(intervalMs: number): number {
  return Math.min(SLACK_MS, intervalMs / 10);
}
/** Time beyond the probe's own timeout that a lease allows (recording, a loaded machine). */
export const LEASE_MARGIN_MS = 10_000;
/** How often a replica looks for monitors another replica created or deleted. */
export const RESYNC_MS = 5_000;

/**
 * The built-in checker's side of the check leases, when several replicas share one database:
 * every replica knows every monitor, keeps timers for and tries the checks of those it owns
 * (check-owners.ts), and the one that takes the lease runs the check. A
 * replica that loses the lease looks again when it runs out: if its holder never recorded the
 * check (it died), this replica runs it.
 */
export class CheckLeases {
  /** This replica among the lease holders. */
  readonly holder = randomUUID();

  /** The claims that read the monitor (`takeAndRead`), taken in batches. */
  private readonly claims: ClaimBatch;

  constructor(private readonly store: Store) {
    const returning = store.monitors.checkRowSql("check_leases.monitor_id");
    this.claims = new ClaimBatch(
      (claims) => store.checkLeases.claimMany(claims, returning),
      (claim) => store.checkLeases.claimReturning(claim, returning),
    );
  }

  /** How long a check of `monitor` may take before another replica runs it again. */
  leaseMs(monitor: ScheduledMonitor, intervalMs: number): number {
    // A run with retries ends within its duration, and before the next is due.
    const retry = monitor.retry && monitor.retry.strategy !== "none" ? monitor.retry : undefined;
    return (retry ? Math.min(retry.duration * 1000, intervalMs) : monitor.timeout_sec * 1000) + LEASE_MARGIN_MS;
  }

  /** Takes the lease on monitor `monitorId`'s due check for `leaseMs` from `now`; whether this replica runs it. */
  take(monitorId: string, intervalMs: number, leaseMs: number, now: number): Promise<boolean> {
    return this.store.checkLeases.claim(this.claim(monitorId, intervalMs, leaseMs, now));
  }

  /**
   * Takes the lease as `take` does, and where granted reads the monitor for its check (with its
   * maintenance windows) in the same statement: `read` is undefined when the monitor is gone.
   * Undefined when another replica holds the lease.
   */
  async takeAndRead(
    monitorId: string,
    intervalMs: number,
    leaseMs: number,
    now: number,
  ): Promise<{ read: CheckRead | undefined } | undefined> {
    // Batched with the claims of the checks due together: one statement for all of them.
    const taken = await this.claims.claim(this.claim(monitorId, intervalMs, leaseMs, now));
    return taken && { read: this.store.monitors.fromCheckRow(taken.value as string | null) };
  }

  /** This replica's claim on the monitor's check due at `now`. */
  private claim(monitorId: string, intervalMs: number, leaseMs: number, now: number): LeaseClaim {
    return { monitorId, holder: this.holder, now, intervalMs, leaseMs, slackMs: slackMs(intervalMs) };
  }

  /** Makes this replica's lease on the monitor, taken at `claimedAt`, run for `leaseMs` (the monitor's timeout grew since the last check). */
  extend(monitorId: string, claimedAt: number, leaseMs: number): Promise<void> {
    return this.store.checkLeases.extend(monitorId, this.holder, claimedAt + leaseMs);
  }

  /**
   * Whether a check of the monitor due at `due` (every `intervalMs`) was already run by another
   * replica: its lease was taken since and finished. One small read, where a claim would read the
   * monitor too.
   */
  async ranSince(monitorId: string, due: number, intervalMs: number): Promise<boolean> {
    const lease = await this.store.checkLeases.current(monitorId);
    return lease !== undefined && lease.done && lease.claimedAt > due - slackMs(intervalMs);
  }

  /** The monitor's current lease: when it was taken and runs out, and whether it was finished (undefined: none). */
  current(monitorId: string): Promise<{ claimedAt: number; expiresAt: number; done: boolean } | undefined> {
    return this.store.checkLeases.current(monitorId);
  }

  /** The first moment a lease taken at `claimedAt` lets another check of a monitor checked every `intervalMs` be taken. */
  nextGrant(claimedAt: number, intervalMs: number): number {
    return claimedAt + intervalMs - slackMs(intervalMs) + 50;
  }

  /** When to look again at a lease another replica holds and has not finished (undefined: nothing to watch). */
  async takeoverAt(monitorId: string): Promise<number | undefined> {
    const lease = await this.store.checkLeases.current(monitorId);
    return lease && !lease.done ? lease.expiresAt + 50 : undefined;
  }

  /** Marks this replica's checks of the monitors recorded (in the transaction that records them). */
  finish(monitorIds: readonly string[]): Promise<void> {
    return this.store.checkLeases.finish(monitorIds, this.holder);
  }
}
