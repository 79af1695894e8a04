import { NETWORK_ERROR_CLASSES, retryDelayMs, type StoredRetry } from "../../api";
import type { CheckAttempt, CheckOutcome } from "../store/heartbeats";

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a run with retries is bounded by. */
export interface RetryBounds {
  retry: StoredRetry | null;
  /** A run ends before the next is due. */
  interval_sec: number;
  /** Each attempt may take this long: a retry starts only if it can end within the run's duration. */
  timeout_sec: number;
}

/** An attempt's outcome, and where it ran when that is not where the run started. */
export type Attempted = CheckOutcome & { location?: string };

/** How a run with retries goes on after its first attempt. */
export interface RetryOptions {
  /** Waits between attempts (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
  /** Ends the run with the attempts made so far (the server stops). */
  signal?: AbortSignal;
}

/**
 * Runs `attempt(0)` and, while it fails with a failure the strategy retries, `attempt(n)` after
 * the strategy's delay: at most `retries` more times, and only while the next attempt can end
 * within `duration` (and the interval). The outcome is the last attempt's, with every attempt
 * listed when there was more than one; nothing to record (undefined) ends the run as it is.
 */
export async function withRetries(
  bounds: RetryBounds,
  attempt: (n: number) => Promise<Attempted | undefined>,
  options: RetryOptions = {},
): Promise<CheckOutcome | undefined> {
  const { sleep = wait, signal } = options;
  const started = performance.now();
  let last = await attempt(0);
  const { retry } = bounds;
  if (!retry || retry.strategy === "none" || !last || last.up) return bare(last);
  const budgetMs = Math.min(retry.duration, bounds.interval_sec) * 1000;
  const attempts: CheckAttempt[] = [summary(last, 0)];
  for (let n = 1; n <= retry.retries && last && !last.up && retryable(last, retry) && !signal?.aborted; n++) {
    const delay = retryDelayMs(retry, n);
    const at = performance.now() - started + delay;
    if (at + bounds.timeout_sec * 1000 > budgetMs) break;
    await sleep(delay);
    if (signal?.aborted) break;
    const offset = performance.now() - started;
    last = await attempt(n);
    if (last) attempts.push(summary(last, offset));
  }
  const outcome = bare(last);
  return outcome && attempts.length > 1 ? { ...outcome, attempts } : outcome;
}

/** Whether the strategy retries this failure: any, or only network errors. */
export function retryable(outcome: CheckOutcome, retry: StoredRetry): boolean {
  return retry.trigger === "failure" || NETWORK_ERROR_CLASSES.includes(outcome.error_class ?? "");
}

/** The outcome without the attempt's location (the run's heartbeat has the run's own). */
function bare(o: Attempted | undefined): CheckOutcome | undefined {
  if (!o || o.location === undefined) return o;
  const { location: _, ...rest } = o;
  return rest;
}

function summary(o: Attempted, offsetMs: number): CheckAttempt {
  return {
    started_ms: Math.round(offsetMs),
    up: o.up,
    status_code: o.status_code,
    response_time_ms: o.response_time_ms,
    error: o.error,
    error_class: o.up ? null : (o.error_class ?? null),
    ...(o.location !== undefined ? { location: o.location } : {}),
  };
}
