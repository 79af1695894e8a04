import type { Store } from "../store";

type Recorded = Awaited<ReturnType<Store["recordCheck"]>>;

interface Waiting {
  write: () => Promise<Recorded>;
  /** The monitor whose check lease the batch finishes with the write (see `RecordBatch`'s `finish`). */
  leased?: string;
  resolve: (recorded: Recorded) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: Recorded } | { ok: false; err: unknown };

/**
 * Records the built-in checker's results in batches: the checks that end in one turn of the event
 * loop are written in one transaction, at the next turn. At thousands of monitors a commit per
 * check cost more than the check's writes, and the time it took delayed the next checks' start.
 * Each caller still learns its own result (or failure) once it is committed.
 *
 * The batch first runs its writes without a savepoint each (a savepoint and its release are two
 * round trips on PostgreSQL, as many as the check's other writes), and the leases of the checks
 * it recorded are finished by one statement in the same transaction. Should any write fail, that
 * transaction is rolled back and the batch runs again with each write in a savepoint of its own,
 * so that one failure fails only its own check.
 */
export class RecordBatch {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly store: Store,
    /** Marks the leases on these monitors' checks finished (in the transaction that records them). */
    private readonly finish?: (monitorIds: string[]) => Promise<void>,
  ) {}

  /**
   * Runs `write` (a `store.recordCheck`: a transaction of its own) in the next batch; resolves
   * once that batch committed. `leased`: the monitor whose check lease is finished with it.
   */
  record(write: () => Promise<Recorded>, leased?: string): Promise<Recorded> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, leased, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    if (!this.store.isOpen) {
      for (const w of batch) w.resolve(undefined);
      return;
    }
    let outcomes: Outcome[];
    try {
      outcomes = await this.store.db.transaction(
        async () => {
          const values: Outcome[] = [];
          for (const w of batch) values.push({ ok: true, value: await w.write() });
          await this.finishLeases(batch);
          return values;
        },
        { flat: true },
      );
    } catch {
      // A write failed: every write again, each in a savepoint of its own.
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

  /** The batch's writes in one transaction, each in a savepoint (its failure undoes only its own writes). */
  private separately(batch: Waiting[]): Promise<Outcome[]> {
    return this.store.db.transaction(async () => {
      const outcomes: Outcome[] = [];
      for (const w of batch) {
        try {
          // recordCheck's own transaction is a savepoint in this one.
          outcomes.push({ ok: true, value: await w.write() });
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
