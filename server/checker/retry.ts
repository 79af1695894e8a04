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

/**
 * Runs `attempt` and, while it fails with a failure the strategy retries, again after the
 * strategy's delay: at most `retries` more times, and only while the next attempt can end within
 * `duration` (and the interval). The outcome is the last attempt's, with every attempt listed
 * when there was more than one; nothing to record (undefined) ends the run as it is.
 */
export async function withRetries(bounds: RetryBounds, attempt: () => Promise<CheckOutcome | undefined>, sleep = wait): Promise<CheckOutcome | undefined> {
  const started = performance.now();
  let last = await attempt();
  const { retry } = bounds;
  if (!retry || retry.strategy === "none" || !last || last.up) return last;
  const budgetMs = Math.min(retry.duration, bounds.interval_sec) * 1000;
  const attempts: CheckAttempt[] = [summary(last, 0)];
  for (let n = 1; n <= retry.retries && last && !last.up && retryable(last, retry); n++) {
    const delay = retryDelayMs(retry, n);
    const at = performance.now() - started + delay;
    if (at + bounds.timeout_sec * 1000 > budgetMs) break;
    await sleep(delay);
    const offset = performance.now() - started;
    last = await attempt();
    if (last) attempts.push(summary(last, offset));
  }
  return last && attempts.length > 1 ? { ...last, attempts } : last;
}

/** Whether the strategy retries this failure: any, or only network errors. */
function retryable(outcome: CheckOutcome, retry: StoredRetry): boolean {
  return retry.trigger === "failure" || NETWORK_ERROR_CLASSES.includes(outcome.error_class ?? "");
}

function summary(o: CheckOutcome, offsetMs: number): CheckAttempt {
  return {
    started_ms: Math.round(offsetMs),
    up: o.up,
    status_code: o.status_code,
    response_time_ms: o.response_time_ms,
    error: o.error,
    error_class: o.up ? null : (o.error_class ?? null),
  };
}
