import type { Dispatcher } from "undici";
import type { Resolve } from "../outbound";
import type { CheckTimings, ErrorClass } from "../../api";
import type { AssertionEvaluator } from "./assertion-pool";
import type { AssertionOutcome } from "./evaluate-worker";
import { errorClassOf } from "./error-class";

/** The outcome of one check, and why it failed. */
export interface ProbeResult {
  up: boolean;
  response_time_ms: number | null;
  status_code: number | null;
  error: string | null;
  /** Up, but slower than `degraded_response_ms` (set by the dispatcher). */
  degraded?: boolean;
  /** What kind of failure it was; null when up. */
  error_class?: ErrorClass | null;
  /** Each assertion's outcome, in order. */
  assertions?: AssertionOutcome[];
  /** The phases measured (see `CheckTimings`). */
  timings?: CheckTimings | null;
}

/** What every probe runs with. */
export interface ProbeContext {
  /** Dispatcher for probes that follow redirects, and one that does not. */
  follow: Dispatcher;
  direct: Dispatcher;
  allowPrivate: boolean;
  /** The resolver of TCP checks (the system's unless a test injects one). */
  resolve?: Resolve;
  /** Judges assertions (off the event loop when they read the body); without it, they are not judged. */
  evaluator?: AssertionEvaluator;
  /** The RDAP bootstrap file domain expiry is looked up through; IANA's when absent. */
  rdapBootstrapUrl?: string;
  /**
   * The ports of the uptime server on this machine (the server's own listening port; for an agent,
   * its server's): browser scripts may not reach them on any address of this machine.
   */
  ownPorts?: () => readonly number[];
}

/** A check that got no response: only its total is known. */
export const NO_TIMINGS: CheckTimings = {
  dns_ms: null,
  connect_ms: null,
  tls_ms: null,
  first_byte_ms: null,
  total_ms: null,
};

/** Whether `code` is one of the expected codes or classes (`"2xx"`). */
export function statusExpected(code: number, expected: readonly (number | string)[]): boolean {
  return expected.some((e) => (typeof e === "number" ? e === code : e[0] === String(code)[0]));
}

/** One failed assertion in words: `json_body $.status equals "ok": found "down"`. */
export function describeFailure(o: AssertionOutcome): string {
  const subject = [o.source, o.property, o.comparison, o.target === null ? null : JSON.stringify(o.target)]
    .filter((p) => p !== null)
    .join(" ");
  return o.reason
    ? `${subject}: ${o.reason}`
    : `${subject}: found ${o.actual === null ? "nothing" : JSON.stringify(o.actual.slice(0, 80))}`;
}

/**
 * Runs a probe from its start time, and turns what it throws (a refused target, a timeout, a
 * connection error) into a failed result with the error's class.
 */
export async function guarded(timeoutSec: number, fn: (started: number) => Promise<ProbeResult>): Promise<ProbeResult> {
  const started = performance.now();
  try {
    return await fn(started);
  } catch (err) {
    return failure(err, timeoutSec, started);
  }
}

/** What a probe that threw `err` records. */
export function failure(err: unknown, timeoutSec: number, started: number): ProbeResult {
  const e = err as Error & { code?: string };
  const timedOut =
    e.name === "TimeoutError" || e.code === "UND_ERR_HEADERS_TIMEOUT" || e.code === "UND_ERR_BODY_TIMEOUT";
  return {
    up: false,
    response_time_ms: null,
    status_code: null,
    error: timedOut ? `timed out after ${timeoutSec} s` : e.message || String(err),
    error_class: timedOut ? "timeout" : errorClassOf(e),
    timings: { ...NO_TIMINGS, total_ms: Math.round(performance.now() - started) },
  };
}
