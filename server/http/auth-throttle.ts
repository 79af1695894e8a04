import type { FailureCounter } from "./shared-counters";

/**
 * Failed authentications per client address in a fixed window. Past the budget, a request from
 * that address whose key does not verify gets a 429 instead of a 401; a valid key is unaffected.
 * Memory is bounded: expired windows are swept, and past `maxAddresses` the table starts over.
 */
export class AuthThrottle implements FailureCounter {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxAddresses = 100_000,
  ) {}

  /** Records one failure; returns the seconds to wait when the address is over its budget. */
  async fail(address: string, now = Date.now()): Promise<number | undefined> {
    return this.count(address, now);
  }

  private count(address: string, now: number): number | undefined {
    let entry = this.failures.get(address);
    if (!entry || entry.resetAt <= now) {
      if (this.failures.size >= this.maxAddresses) this.sweep(now);
      entry = { count: 0, resetAt: now + this.windowMs };
      this.failures.set(address, entry);
    }
    entry.count += 1;
    return entry.count > this.limit ? Math.max(1, Math.ceil((entry.resetAt - now) / 1000)) : undefined;
  }

  private sweep(now: number): void {
    for (const [address, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(address);
    if (this.failures.size >= this.maxAddresses) this.failures.clear();
  }
}
