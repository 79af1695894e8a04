import type { Fault, FaultProxy } from "./fault-proxy";

/** Which requests a fault applies to: all when left out. */
export type Match = (method: string, path: string) => boolean;

/** Fault injection between the program under test and the server. */
export interface Faults {
  /** Adds `ms` of latency to every matching request until `clear()`. */
  latency(ms: number, match?: Match): void;
  /** Answers the next `count` matching requests 429 with `Retry-After: retryAfterSec`. */
  rateLimitBurst(count: number, options?: { retryAfterSec?: number; match?: Match }): void;
  /** Answers a fraction `rate` (0..1) of matching requests with `status` (default 503). */
  serverErrors(rate: number, options?: { status?: number; times?: number; match?: Match }): void;
  /**
   * Drops the next `count` matching responses: the connection closes without an answer. With
   * `afterServer` (the default) the server has done the work, as when a response is lost.
   */
  dropResponses(count: number, options?: { afterServer?: boolean; match?: Match }): void;
  /** Adds a raw rule (see `Fault`). */
  add(fault: Fault): void;
  /** Removes every fault: requests go straight through. */
  clear(): void;
  /** Requests the proxy saw, as `METHOD path STATUS`, in order. */
  readonly requests: readonly string[];
}

function check(name: string, value: number, min: number, max = Infinity): void {
  if (!(value >= min && value <= max))
    throw new RangeError(`faults.${name} must be between ${min} and ${max}, got ${value}`);
}

/** The `Faults` controls of a fault proxy. */
export function faultControls(proxy: FaultProxy): Faults {
  return {
    latency(ms, match) {
      check("latency", ms, 0, 60_000);
      proxy.faults.push({ delayMs: ms, times: Infinity, match });
    },
    rateLimitBurst(count, { retryAfterSec = 1, match } = {}) {
      check("rateLimitBurst", count, 0);
      proxy.faults.push({ status: 429, times: count, headers: { "retry-after": String(retryAfterSec) }, match });
    },
    serverErrors(rate, { status = 503, times = Infinity, match } = {}) {
      check("serverErrors", rate, 0, 1);
      check("serverErrors status", status, 500, 599);
      proxy.faults.push({ status, rate, times, match });
    },
    dropResponses(count, { afterServer = true, match } = {}) {
      check("dropResponses", count, 0);
      proxy.faults.push({ drop: true, afterForward: afterServer, times: count, match });
    },
    add: (fault) => void proxy.faults.push(fault),
    clear: () => void (proxy.faults.length = 0),
    get requests() {
      return proxy.seen;
    },
  };
}
