import type { Store } from "../store";
import type { CheckRecord } from "../store";
import { BatchWindow } from "./batch-window";

type Recorded = Awaited<ReturnType<Store["recordCheck"]>>;

interface Waiting {
  check: CheckRecord;
  /** When it was handed over (`performance.now()`). */
  at: number;
  /** The monitor whose check lease the batch finishes with the write (see `RecordBatch`'s `finish`). */
  leased?: string;
  resolve: (recorded: Recorded) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: Recorded } | { ok: false; err: unknown };

/** Checks recorded by one transaction at most. */
const MAX_BATCH = 512;
/**
 * How long a result waits for others to join its transaction. Every transaction costs about the
 * same (a statement per table and a commit, and on PostgreSQL a round trip each) whatever it holds,
 * and a checker that keeps up hands results over a few at a time: without the wait, a replica
 * checking 1,000 monitors a second wrote 155 transactions a second, one checking 2,000 wrote 86.
 * A fortieth of a second: a result is visible that much later, and a check's turn under the
 * checker's concurrency limit ends when it hands its result over, not when that is committed.
 */
export const RECORD_WINDOW_MS = 25;

/**
 * Records the built-in checker's results in batches, one transaction at a time: the checks that
 * end within `RECORD_WINDOW_MS` of the first, or while a batch is being written, are the next batch.
 * At thousands of monitors a commit per check cost more than the check's writes, and on PostgreSQL
 * each statement is a round trip: a batch is written by a statement per table
 * (`Store.recordChecks`), so the busier the checker, the fewer statements per check. Each caller
 * still learns its own result (or failure) once it is committed.
 *
 * The leases of the checks a batch recorded are finished by one statement in the same
 * transaction. Should any write fail, that transaction is rolled back and the batch runs again
 * with each check in a savepoint of its own, so that one failure fails only its own check.
 */
export class RecordBatch {
  private readonly batches = new BatchWindow<Waiting>(RECORD_WINDOW_MS, (waiting) =>
    this.write(waiting.splice(0, MAX_BATCH)),
  );

  constructor(
    private readonly store: Store,
    /** Marks the leases on these monitors' checks finished (in the transaction that records them). */
    private readonly finish?: (monitorIds: string[]) => Promise<void>,
  ) {}

  /**
   * Records `check` in the next batch; resolves once that batch committed. `leased`: the monitor
   * whose check lease is finished with it.
   */
  record(check: CheckRecord, leased?: string): Promise<Recorded> {
    return new Promise((resolve, reject) => {
      this.batches.add({ check, at: performance.now(), leased, resolve, reject });
    });
  }

  private async write(batch: Waiting[]): Promise<void> {
    if (!this.store.isOpen) {
      for (const w of batch) w.resolve(undefined);
      return;
    }
    let outcomes: Outcome[];
    try {
      outcomes = await this.store.db.transaction(
        async () => {
          const values = await this.store.recordChecks(batch.map((w) => w.check));
          await this.finishLeases(batch);
          return values.map((value): Outcome => ({ ok: true, value }));
        },
        { flat: true },
      );
    } catch {
      // A write failed: every check again, each in a savepoint of its own.
      try {
        outcomes = await this.separately(batch);
      } catch (err) {
        for (const w of batch) w.reject(err);
        return;
      }
    }
    batch.forEach((w, i) => {
      const o = outcomes[i];
      if (o?.ok) w.resolve(o.value);
      else w.reject(o?.err);
    });
  }

  /** The batch's checks in one transaction, each in a savepoint (its failure undoes only its own writes). */
  private separately(batch: Waiting[]): Promise<Outcome[]> {
    return this.store.db.transaction(async () => {
      const outcomes: Outcome[] = [];
      for (const w of batch) {
        try {
          // recordChecks' own transaction is a savepoint in this one.
          outcomes.push({ ok: true, value: (await this.store.recordChecks([w.check]))[0] });
        } catch (err) {
          outcomes.push({ ok: false, err });
        }
      }
      await this.finishLeases(batch.filter((_, i) => outcomes[i]?.ok));
      return outcomes;
    });
  }

  private async finishLeases(written: Waiting[]): Promise<void> {
    const ids = written.flatMap((w) => (w.leased === undefined ? [] : [w.leased]));
    if (ids.length > 0 && this.finish) await this.finish(ids);
  }
}
