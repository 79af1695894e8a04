import { LRUCache } from "lru-cache";
import type { PageChanges } from "../store/page-changes";

/** A value and until when (epoch ms) it holds, whatever is written. */
export interface Expiring<T> {
  value: T;
  expires: number;
}

/** What a computation found: its value, and the monitors it shows (undefined: any). */
export type Computed<T> = Expiring<T> & { monitors?: Iterable<string> };

interface Entry<T> {
  /** The last value computed, the point of the page changes it was computed at, and the monitors it shows. */
  done?: Expiring<T> & { at: number; monitors: ReadonlySet<string> | undefined };
  /** The computation under way, and the point it started at. */
  pending?: { promise: Promise<T>; at: number };
}

/**
 * Values computed from the store (a status page's answers), each kept until a committed write to
 * what it shows (`PageChanges`, this process's and other processes': the monitors it names, or
 * anything pages show besides monitors' rows) or until its own expiry (what changes with time
 * alone). The first request after a change computes the value again and waits for it; requests
 * that come while it is computed share that computation. Those that find a value kept that only
 * ran out of time (no write came after it) are answered with it meanwhile, so that a busy page
 * never stalls behind its own recomputation at midnight; after a write to what it shows, they wait
 * for the new value. A value is never answered past a write to what it shows.
 */
export class ViewCache<T> {
  private readonly entries: LRUCache<string, Entry<T>>;

  constructor(
    private readonly changes: PageChanges,
    max = 1_000,
    private readonly clock: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max });
  }

  /**
   * The value kept at `key` if it holds now, without computing one; call it right after
   * `PageChanges.current()` (which looks at other processes' commits), in the same turn.
   */
  kept(key: string): { value: T } | undefined {
    const done = this.entries.get(key)?.done;
    return done && !this.changes.changedSince(done.at, done.monitors) && this.clock() < done.expires
      ? { value: done.value }
      : undefined;
  }

  /** The value at `key`, computed by `compute(now, previous)` when none holds now (`previous`: the one it replaces). */
  async get(key: string, compute: (now: number, previous: T | undefined) => Promise<Computed<T>>): Promise<T> {
    const at = await this.changes.current();
    let entry = this.entries.get(key);
    const done = entry?.done;
    // Whether the last value is still true of the store (it may have run out of time only).
    const unwritten = done !== undefined && !this.changes.changedSince(done.at, done.monitors);
    if (done && unwritten && this.clock() < done.expires) return done.value;
    // A computation under way since nothing it shows (as far as the last value tells) was written:
    // shared. Meanwhile the last value answers only if no write came after it (it ran out of time
    // alone); after a write it is never answered again (a page made private, a monitor gone down).
    const pending = entry?.pending;
    if (pending && !this.changes.changedSince(pending.at, done?.monitors))
      return done && unwritten ? done.value : await pending.promise;
    if (!entry) {
      entry = {};
      this.entries.set(key, entry);
    }
    const kept = entry;
    const promise = compute(this.clock(), done?.value).then(
      (result) => {
        if (!kept.done || kept.done.at <= at) {
          const monitors = result.monitors === undefined ? undefined : new Set(result.monitors);
          kept.done = { value: result.value, expires: result.expires, at, monitors };
        }
        if (kept.pending?.promise === promise) kept.pending = undefined;
        return result.value;
      },
      (err: unknown) => {
        if (kept.pending?.promise === promise) kept.pending = undefined;
        throw err;
      },
    );
    kept.pending = { promise, at };
    return await promise;
  }
}
