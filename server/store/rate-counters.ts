import type { Executor } from "./sql/executor";

/** Windows this far past their end are deleted, every SWEEP_EVERY counts. */
const SWEEP_EVERY = 1_000;

/** A count in its window. */
export interface WindowCount {
  /** Counts so far in the window, this one included. */
  count: number;
  /** When the window ends (ms). */
  resetAt: number;
}

/** Counts of one key waiting for the statement that adds them. */
interface Waiting {
  windowMs: number;
  now: number;
  settle: { resolve: (count: WindowCount) => void; reject: (err: unknown) => void }[];
}

/**
 * Fixed-window counters in the database (rate limits and failed authentications), so that every
 * replica on one PostgreSQL database counts a key's requests together. The row's window starts
 * over when it ended.
 *
 * Counts of one key are added by one statement at a time per process: those that arrive while a
 * statement runs wait and are added together by the next (`count + n`), and each learns its own
 * place in the window (the n counts get the n values below the new total). Every count still
 * waits for the database to hold it, so the limit is exact across replicas, but a busy key costs
 * one write per round trip instead of one per request (one hot row, locked once per request,
 * would cap every replica together at the database's commit rate).
 */
export class RateCounterRepository {
  private counted = 0;
  private readonly waiting = new Map<string, Waiting>();
  private readonly running = new Set<string>();

  constructor(private readonly db: Executor) {}

  /** Counts one for `key` in a window of `windowMs`; the count so far and when the window ends. */
  increment(key: string, windowMs: number, now = Date.now()): Promise<WindowCount> {
    return new Promise((resolve, reject) => {
      let waiting = this.waiting.get(key);
      if (!waiting) this.waiting.set(key, (waiting = { windowMs, now, settle: [] }));
      waiting.settle.push({ resolve, reject });
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  /** Adds the waiting counts of `key`, one statement at a time, until none wait. */
  private async drain(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let waiting = this.waiting.get(key); waiting; waiting = this.waiting.get(key)) {
        this.waiting.delete(key);
        const n = waiting.settle.length;
        try {
          const { count, resetAt } = await this.add(key, n, waiting.windowMs, waiting.now);
          waiting.settle.forEach(({ resolve }, i) => resolve({ count: count - n + i + 1, resetAt }));
        } catch (err) {
          for (const { reject } of waiting.settle) reject(err);
        }
      }
    } finally {
      this.running.delete(key);
    }
  }

  /** One statement: `n` more counts for `key`; the total in the window and when it ends. */
  private async add(key: string, n: number, windowMs: number, now: number): Promise<WindowCount> {
    const expired = now - windowMs;
    const row = (await this.db
      .prepare(
        `INSERT INTO rate_counters (key, window_start, count) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_counters.window_start <= ? THEN ? ELSE rate_counters.count + ? END,
           window_start = CASE WHEN rate_counters.window_start <= ? THEN ? ELSE rate_counters.window_start END
         RETURNING count, window_start`,
      )
      .get(key, now, n, expired, n, n, expired, now)) as { count: number | string; window_start: number | string };
    this.counted += n;
    if (this.counted >= SWEEP_EVERY) {
      this.counted = 0;
      await this.db.prepare("DELETE FROM rate_counters WHERE window_start <= ?").run(expired);
    }
    return { count: Number(row.count), resetAt: Number(row.window_start) + windowMs };
  }
}
