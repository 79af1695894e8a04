import { LRUCache } from "lru-cache";
import type { PageChanges } from "../store/page-changes";

/** A value and until when (epoch ms) it holds, whatever is written. */
export interface Expiring<T> {
  value: T;
  expires: number;
}

interface Entry<T> {
  /** The last value computed, and the version of the page changes it was computed at. */
  done?: Expiring<T> & { version: number };
  /** The computation under way, and the version it started at. */
  pending?: { promise: Promise<T>; version: number };
}

/**
 * Values computed from the store (a status page's answers), each kept until a committed write to
 * what pages show (`PageChanges`, this process's and other processes') or until its own expiry
 * (what changes with time alone). The first request after a change computes the value again and
 * waits for it; requests that come while it is computed share that computation, and those that
 * find a value already kept are answered with it meanwhile (it was true moments ago), so that a
 * busy page never stalls behind its own recomputation. A value is never kept past the version it
 * was computed at.
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

  /** The value at `key`, computed by `compute(now, previous)` when none holds now (`previous`: the one it replaces). */
  async get(key: string, compute: (now: number, previous: T | undefined) => Promise<Expiring<T>>): Promise<T> {
    const version = await this.changes.current();
    let entry = this.entries.get(key);
    const done = entry?.done;
    if (done && done.version === version && this.clock() < done.expires) return done.value;
    if (entry?.pending?.version === version) return done ? done.value : await entry.pending.promise;
    if (!entry) {
      entry = {};
      this.entries.set(key, entry);
    }
    const kept = entry;
    const promise = compute(this.clock(), done?.value).then(
      (result) => {
        if (!kept.done || kept.done.version <= version) kept.done = { ...result, version };
        if (kept.pending?.promise === promise) kept.pending = undefined;
        return result.value;
      },
      (err: unknown) => {
        if (kept.pending?.promise === promise) kept.pending = undefined;
        throw err;
      },
    );
    kept.pending = { promise, version };
    return await promise;
  }
}
