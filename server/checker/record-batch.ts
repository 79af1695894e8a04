import type { Store } from "../store";

type Recorded = Awaited<ReturnType<Store["recordCheck"]>>;

interface Waiting {
  write: () => Promise<Recorded>;
  resolve: (recorded: Recorded) => void;
  reject: (err: unknown) => void;
}

/**
 * Records the built-in checker's results in batches: the checks that end in one turn of the event
 * loop are written in one transaction (each its own savepoint), at the next turn. At thousands of
 * monitors a commit per check cost more than the check's writes, and the time it took delayed the
 * next checks' start. Each caller still learns its own result (or failure) once it is committed.
 */
export class RecordBatch {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(private readonly store: Store) {}

  /** Runs `write` (a `store.recordCheck`: a transaction of its own, so a savepoint here) in the next batch; resolves once that batch committed. */
  record(write: () => Promise<Recorded>): Promise<Recorded> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
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
    const outcomes: ({ ok: true; value: Recorded } | { ok: false; err: unknown })[] = [];
    try {
      await this.store.db.transaction(async () => {
        for (const w of batch) {
          try {
            // recordCheck's own transaction is a savepoint in this one.
            outcomes.push({ ok: true, value: await w.write() });
          } catch (err) {
            outcomes.push({ ok: false, err });
          }
        }
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => {
      const o = outcomes[i];
      if (o?.ok) w.resolve(o.value);
      else w.reject(o?.err);
    });
  }
}
