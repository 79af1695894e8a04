import type { Executor, SqlValue } from "./sql/executor";

/** Takes a monitor's lease (see `CheckLeaseRepository.claim`). */
const CLAIM = `INSERT INTO check_leases (monitor_id, holder, claimed_at, expires_at, done) VALUES (?, ?, ?, ?, 0)
  ON CONFLICT (monitor_id) DO UPDATE SET holder = excluded.holder, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at, done = 0
  WHERE check_leases.claimed_at <= ? OR (check_leases.done = 0 AND check_leases.expires_at <= ?)`;

/** The parameters of `CLAIM`, in its order. */
function claimParams(c: LeaseClaim): SqlValue[] {
  return [c.monitorId, c.holder, c.now, c.now + c.leaseMs, c.now - c.intervalMs + c.slackMs, c.now];
}

/** A replica's request for a monitor's lease on its check due now. */
export interface LeaseClaim {
  readonly monitorId: string;
  /** The replica asking. */
  readonly holder: string;
  readonly now: number;
  /** The monitor's interval: a lease claimed at least this long ago (less `slackMs`) is over. */
  readonly intervalMs: number;
  /** How long the lease runs from `now`. */
  readonly leaseMs: number;
  /** A timer's jitter tolerated between two replicas' schedules of the monitor. */
  readonly slackMs: number;
}

/** Leases finished by one statement at most. */
const FINISH_CHUNK = 256;

/**
 * Leases on checks, for several replicas on one database: a replica runs a due check only once it
 * holds the monitor's lease. A lease is granted when the monitor's last one was claimed at least
 * one interval ago (less `slackMs`, a timer's jitter), or when its holder never finished it and
 * it has expired (the holder died): then another replica runs the check again.
 */
export class CheckLeaseRepository {
  constructor(private readonly db: Executor) {}

  /** Takes the claimed monitor's check for its holder until `now + leaseMs`; whether it was granted. */
  async claim(c: LeaseClaim): Promise<boolean> {
    const result = await this.db.prepare(CLAIM).run(...claimParams(c));
    return result.changes === 1;
  }

  /**
   * As `claim`, and where granted, the value of the SQL expression `returning` (over the lease's
   * row, `check_leases`), in the same statement; undefined where not granted.
   */
  async claimReturning(c: LeaseClaim, returning: string): Promise<{ value: unknown } | undefined> {
    const row = (await this.db.prepare(`${CLAIM} RETURNING ${returning} AS value`).get(...claimParams(c))) as
      { value: unknown } | undefined;
    return row && { value: row.value };
  }

  /**
   * Takes several claims, each as `claim` takes one, in one statement: the claims granted, by
   * monitor, each with the value of the SQL expression `returning` over its lease's row
   * (`check_leases`). The claims share one holder and one window (`intervalMs - slackMs`), and
   * name each monitor once; a claim of a monitor that is gone is not granted.
   */
  async claimMany(claims: readonly LeaseClaim[], returning: string): Promise<Map<string, unknown>> {
    const first = claims[0];
    if (!first) return new Map();
    const rows = this.db.dialect.jsonRows("r", { monitor_id: "text", now: "integer", expires_at: "integer" });
    // The same grant as CLAIM's, with each claim's own time: the row's `claimed_at` as inserted.
    // Rows are locked in the order of their ids, as the finish of a batch of checks locks them
    // (an index scan): two replicas' statements over the same leases never wait for each other in a circle.
    const found = (await this.db
      .prepare(
        `INSERT INTO check_leases (monitor_id, holder, claimed_at, expires_at, done)
          SELECT r.monitor_id, ?, r.now, r.expires_at, 0 FROM ${rows} JOIN monitors m ON m.id = r.monitor_id WHERE true ORDER BY r.monitor_id
          ON CONFLICT (monitor_id) DO UPDATE SET holder = excluded.holder, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at, done = 0
          WHERE check_leases.claimed_at <= excluded.claimed_at - ? OR (check_leases.done = 0 AND check_leases.expires_at <= excluded.claimed_at)
          RETURNING check_leases.monitor_id AS id, ${returning} AS value`,
      )
      .all(
        first.holder,
        JSON.stringify(claims.map((c) => ({ monitor_id: c.monitorId, now: c.now, expires_at: c.now + c.leaseMs }))),
        first.intervalMs - first.slackMs,
      )) as { id: string; value: unknown }[];
    return new Map(found.map((r) => [r.id, r.value]));
  }

  /** When the monitor's current lease was taken and runs out, and whether it was finished (undefined: none). */
  async current(monitorId: string): Promise<{ claimedAt: number; expiresAt: number; done: boolean } | undefined> {
    const row = (await this.db
      .prepare("SELECT claimed_at, expires_at, done FROM check_leases WHERE monitor_id = ?")
      .get(monitorId)) as { claimed_at: number; expires_at: number; done: number } | undefined;
    return row && { claimedAt: row.claimed_at, expiresAt: row.expires_at, done: row.done === 1 };
  }

  /** Moves the end of `holder`'s unfinished lease on the monitor to `expiresAt`. */
  async extend(monitorId: string, holder: string, expiresAt: number): Promise<void> {
    await this.db
      .prepare("UPDATE check_leases SET expires_at = ? WHERE monitor_id = ? AND holder = ? AND done = 0")
      .run(expiresAt, monitorId, holder);
  }

  /**
   * Marks `holder`'s leases on the monitors finished (call in the transaction that records their
   * checks), in statements of at most `FINISH_CHUNK` ids.
   */
  async finish(monitorIds: readonly string[], holder: string): Promise<void> {
    for (let i = 0; i < monitorIds.length; i += FINISH_CHUNK) {
      const chunk = monitorIds.slice(i, i + FINISH_CHUNK);
      // The list padded to a power of two (with its last id again): a few statement texts for every batch size.
      const size = 2 ** Math.ceil(Math.log2(chunk.length));
      const ids = [...chunk, ...Array<string>(size - chunk.length).fill(chunk.at(-1) as string)];
      await this.db
        .prepare(
          `UPDATE check_leases SET done = 1 WHERE holder = ? AND monitor_id IN (${ids.map(() => "?").join(", ")})`,
        )
        .run(holder, ...ids);
    }
  }
}
