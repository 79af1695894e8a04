import type { CheckTimings, ErrorClass } from "../../../api";
import type { AssertionOutcome } from "../evaluate-worker";
import type { CheckedMonitor } from "../monitor-fields";
import { describeFailure, NO_TIMINGS, type ProbeContext, type ProbeResult } from "../probe";

/**
 * What a network or protocol check found: its reply (one JSON object for ping, smtp and domain; the
 * message, datagram or serving status as text for grpc, websocket and udp), and its own verdict.
 */
export interface NetworkReply {
  /** What `json_body` and `text_body` assertions read: an object as its JSON, a string as it is. */
  reply: Record<string, unknown> | string;
  /** The response time recorded (a ping's average round trip; else the whole exchange). */
  response_time_ms: number | null;
  /** The type's own verdict when it is down (100% loss, no STARTTLS, expiring soon), with its class. */
  problem?: { error: string; error_class: ErrorClass };
  /** When the certificate read expires (smtp), as a heartbeat carries it. */
  cert_expires_at?: string | null;
  timings?: Partial<CheckTimings>;
}

/**
 * The result of a network check: down with the type's own problem, else down at the first failed
 * assertion over the JSON reply, else up.
 */
export async function judgeNetworkReply(
  ctx: ProbeContext,
  monitor: CheckedMonitor,
  found: NetworkReply,
): Promise<ProbeResult & { cert_expires_at?: string | null }> {
  const body = typeof found.reply === "string" ? found.reply : JSON.stringify(found.reply);
  const response_time_ms = found.response_time_ms;
  const outcomes = ctx.evaluator
    ? await ctx.evaluator.evaluate(monitor.assertions, {
        status_code: 0,
        response_time_ms: response_time_ms ?? 0,
        headers: {},
        body,
      })
    : [];
  const base = {
    response_time_ms,
    status_code: null,
    assertions: outcomes,
    timings: { ...NO_TIMINGS, ...found.timings, total_ms: found.timings?.total_ms ?? response_time_ms },
    ...(found.cert_expires_at !== undefined ? { cert_expires_at: found.cert_expires_at } : {}),
  };
  if (found.problem) return { ...base, up: false, ...found.problem };
  const failed = outcomes.filter((o) => !o.pass);
  if (failed.length > 0) {
    return {
      ...base,
      up: false,
      error: `${failed.length} of ${outcomes.length} assertions failed: ${describeFailure(failed[0] as AssertionOutcome)}`,
      error_class: "assertion",
    };
  }
  return { ...base, up: true, error: null, error_class: null };
}

const DAY_MS = 86_400_000;

/** Whole days from `now` to `at` (negative once past). */
export function daysLeft(at: number, now = Date.now()): number {
  return Math.floor((at - now) / DAY_MS);
}
