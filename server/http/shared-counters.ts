import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { RateCounterRepository } from "../store/rate-counters";

/** What `@fastify/rate-limit` hands its store: a count and the milliseconds left in its window. */
type Incremented = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A `@fastify/rate-limit` store over the database's counters (its `store` option takes a class):
 * every replica on one PostgreSQL database counts a key's requests together, so a key gets its
 * budget once, whichever replicas its requests reach.
 */
export function sharedRateLimitStore(counters: RateCounterRepository, windowMs: number): FastifyRateLimitStoreCtor {
  return class SharedRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, done: Incremented): void {
      const now = Date.now();
      counters.increment(`rate:${key}`, windowMs, now).then(
        ({ count, resetAt }) => done(null, { current: count, ttl: Math.max(0, resetAt - now) }),
        (err: Error) => done(err),
      );
    }

    child(): this {
      return this;
    }
  };
}

/** Failed authentications per address: in memory (one process) or in the database (replicas). */
export interface FailureCounter {
  /** Records one failure; the seconds to wait when the address is over its budget. */
  fail(address: string): Promise<number | undefined>;
}

/** Failed authentications per address counted in the database, across replicas. */
export class SharedAuthThrottle implements FailureCounter {
  constructor(
    private readonly counters: RateCounterRepository,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  async fail(address: string, now = Date.now()): Promise<number | undefined> {
    const { count, resetAt } = await this.counters.increment(`authfail:${address}`, this.windowMs, now);
    return count > this.limit ? Math.max(1, Math.ceil((resetAt - now) / 1000)) : undefined;
  }
}
