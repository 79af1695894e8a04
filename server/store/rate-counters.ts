import type { Executor } from "./executor";

/** Windows this far past their end are deleted, every SWEEP_EVERY counts. */
const SWEEP_EVERY = 1_000;

/** A count in its window. */
export interface WindowCount {
  /** Counts so far in the window, this one included. */
  count: number;
  /** When the window ends (ms). */
  resetAt: number;
}

/**
 * Fixed-window counters in the database (rate limits and failed authentications), so that every
 * replica on one PostgreSQL database counts a key's or an address's requests together. One
 * statement a count: the row's window starts over when it ended.
 */
export class RateCounterRepository {
  private counted = 0;

  constructor(private readonly db: Executor) {}

  /** Counts one for `key` in a window of `windowMs`; the count so far and when the window ends. */
  async increment(key: string, windowMs: number, now = Date.now()): Promise<WindowCount> {
    const expired = now - windowMs;
    const row = (await this.db
      .prepare(
        `INSERT INTO rate_counters (key, window_start, count) VALUES (?, ?, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_counters.window_start <= ? THEN 1 ELSE rate_counters.count + 1 END,
           window_start = CASE WHEN rate_counters.window_start <= ? THEN ? ELSE rate_counters.window_start END
         RETURNING count, window_start`,
      )
      .get(key, now, expired, expired, now)) as { count: number | string; window_start: number | string };
    if (++this.counted % SWEEP_EVERY === 0) await this.db.prepare("DELETE FROM rate_counters WHERE window_start <= ?").run(expired);
    return { count: Number(row.count), resetAt: Number(row.window_start) + windowMs };
  }
}
