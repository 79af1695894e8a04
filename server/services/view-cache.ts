import { LRUCache } from "lru-cache";
import type { PageChanges } from "../store/page-changes";

/** A value and until when (epoch ms) it holds, whatever is written. */
export interface Expiring<T> {
  value: T;
  expires: number;
}

interface Entry<T> {
  /** The version of the page changes the value was computed at. */
  version: number;
  /** The computation under way, shared by the requests that wait for it. */
  pending?: Promise<T>;
  done?: Expiring<T>;
}

/**
 * Values computed from the store (a status page's answers), each kept until a committed write to
 * what pages show (`PageChanges`, this process's and other processes') or until its own expiry
 * (what changes with time alone). The requests that ask while a value is computed wait for that
 * one computation; a value computed while a write committed is not kept past it.
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
    const entry = this.entries.get(key);
    if (entry?.version === version) {
      if (entry.done && this.clock() < entry.done.expires) return entry.done.value;
      if (entry.pending) return await entry.pending;
    }
    const fresh: Entry<T> = { version };
    fresh.pending = compute(this.clock(), entry?.done?.value).then(
      (result) => {
        fresh.done = result;
        fresh.pending = undefined;
        return result.value;
      },
      (err: unknown) => {
        if (this.entries.get(key) === fresh) this.entries.delete(key);
        throw err;
      },
    );
    this.entries.set(key, fresh);
    return await fresh.pending;
  }

}
