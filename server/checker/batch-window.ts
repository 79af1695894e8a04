/**
 * Items handed over one at a time and taken in batches, one batch at a time: the items handed over
 * within `windowMs` of the oldest waiting one, or while a batch is taken, are the next batch. `take`
 * removes from `waiting` what it takes (the oldest item at least). The checker's lease claims
 * (claim-batch.ts) and its results (record-batch.ts) are taken so: each statement or transaction
 * costs about the same whatever it holds.
 */
export class BatchWindow<W extends { at: number }> {
  private readonly waiting: W[] = [];
  private scheduled = false;
  private running = false;

  constructor(
    private readonly windowMs: number,
    private readonly take: (waiting: W[]) => Promise<void>,
  ) {}

  /** Adds `item` (`at`: when it was handed over, by `performance.now()`) to the next batch. */
  add(item: W): void {
    this.waiting.push(item);
    if (!this.scheduled && !this.running) {
      this.scheduled = true;
      setTimeout(() => void this.flush(), this.windowMs);
    }
  }

  /** Takes the waiting items, batch after batch, until none wait. */
  private async flush(): Promise<void> {
    this.scheduled = false;
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        // The items handed over while the last batch was taken: the oldest waits out its window.
        const wait = (this.waiting[0] as W).at + this.windowMs - performance.now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        await this.take(this.waiting);
      }
    } finally {
      this.running = false;
    }
  }
}
