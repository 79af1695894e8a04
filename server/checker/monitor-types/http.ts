import { ASSERTION_DEFAULTS, BODY_LIMIT_BYTES, type ErrorClass } from "../../../api";
import { assertTargetAllowed } from "../../outbound";
import type { AssertionOutcome } from "../evaluate-worker";
import { exchange } from "../http-exchange";
import type { CheckedMonitor } from "../monitor-fields";
import { describeFailure, guarded, type ProbeContext, type ProbeResult, statusExpected } from "../probe";
import { probeHttps } from "../tls";
import { withDomainExpiry } from "./domain";
import type { CheckContext, MonitorType } from "./monitor-type";

/** A check of the body beyond the assertions (a keyword's): an error message, or null when it passes. */
export type BodyCheck = (body: string) => string | null;

/**
 * One HTTP check of `monitor`: the request, then the status, the `bodyCheck` and the assertions,
 * in that order; the first that fails names the failure.
 */
export async function probeHttp(
  ctx: ProbeContext,
  monitor: CheckedMonitor,
  bodyCheck?: BodyCheck,
): Promise<ProbeResult> {
  return guarded(monitor.timeout_sec, async (started) => {
    const url = new URL(monitor.url ?? "");
    assertTargetAllowed(url, ctx.allowPrivate);
    const assertions = monitor.assertions ?? ASSERTION_DEFAULTS.assertions;
    const readBody =
      bodyCheck !== undefined || assertions.some((a) => a.source === "json_body" || a.source === "text_body");
    const res = await exchange(ctx, { ...monitor, url }, started, readBody ? BODY_LIMIT_BYTES : undefined);
    const base = { response_time_ms: res.response_time_ms, status_code: res.status_code, timings: res.timings };
    const outcomes = ctx.evaluator
      ? await ctx.evaluator.evaluate(assertions, {
          status_code: res.status_code,
          response_time_ms: res.response_time_ms,
          headers: res.headers,
          body: res.body,
        })
      : [];
    const fail = (error: string, error_class: ErrorClass): ProbeResult => ({
      ...base,
      up: false,
      error,
      error_class,
      assertions: outcomes,
    });
    if (!statusExpected(res.status_code, monitor.expected_status_codes))
      return fail(`unexpected status ${res.status_code}`, "http");
    const bodyError = bodyCheck?.(res.body ?? "");
    if (bodyError) return fail(bodyError, "assertion");
    const failed = outcomes.filter((o) => !o.pass);
    if (failed.length > 0)
      return fail(
        `${failed.length} of ${outcomes.length} assertions failed: ${describeFailure(failed[0] as AssertionOutcome)}`,
        "assertion",
      );
    return { ...base, up: true, error: null, error_class: null, assertions: outcomes };
  });
}

/**
 * An HTTP check with the certificate extensions of https URLs (`ssl_expiry_days`, `verify_tls`)
 * and the registration's expiry (`domain_expiry_days`): what the http and keyword types share.
 */
export async function httpCheck(
  monitor: CheckedMonitor,
  ctx: CheckContext,
  now: number,
  bodyCheck?: BodyCheck,
): Promise<ProbeResult> {
  return withDomainExpiry(await requestCheck(monitor, ctx, now, bodyCheck), monitor, ctx.probe, now);
}

function requestCheck(
  monitor: CheckedMonitor,
  ctx: CheckContext,
  now: number,
  bodyCheck?: BodyCheck,
): Promise<ProbeResult> {
  if (monitor.url?.startsWith("https://") && (monitor.ssl_expiry_days !== null || !monitor.verify_tls)) {
    return probeHttps(ctx.probe, ctx.insecure, monitor, (probeCtx) => probeHttp(probeCtx, monitor, bodyCheck), now);
  }
  return probeHttp(ctx.probe, monitor, bodyCheck);
}

/** HTTP(S) monitors: one request, its status and assertions, and with https the certificate. */
export const httpType: MonitorType = {
  name: "http",
  probes: true,
  check: (monitor, ctx, now) => httpCheck(monitor, ctx, now),
};
