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
 * its monitors' checks (or time) made old are answered with it meanwhile (it was true moments
 * ago), so that a busy page never stalls behind its own recomputation; after any other write to
 * what it shows (a page made private, a component removed) they wait for the new value.
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
    if (done && !this.changes.changedSince(done.at, done.monitors) && this.clock() < done.expires) return done.value;
    // A computation under way since nothing it shows (as far as the last value tells) was written:
    // shared. Meanwhile the last value answers if only its monitors' checks came after it (a
    // moment's health); after a write to a page, its structure, incidents, maintenance windows or
    // an account (a page made private, a component removed) it is never answered again.
    const pending = entry?.pending;
    if (pending && !this.changes.changedSince(pending.at, done?.monitors))
      return done && !this.changes.pagesWrittenSince(done.at) ? done.value : await pending.promise;
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
