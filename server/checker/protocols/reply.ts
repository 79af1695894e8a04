import { isIP } from "node:net";
import type { LookupAddress } from "node:dns";
import type { CheckTimings } from "../../../api";
import { refusal, safeLookup, TargetRefusedError } from "../../outbound";
import type { CheckedMonitor } from "../monitor-fields";
import type { ProbeContext, ProbeResult } from "../probe";
import { judgeNetworkReply } from "./network-reply";

/**
 * What the protocol types (grpc, websocket, udp) share: the one address a check may dial, and
 * the judgement of what came back by the monitor's assertions.
 */

/**
 * The address `hostname` is dialled at, by the outbound policy: an IP literal by its range, a
 * name through `safeLookup` (so a name re-pointed at a private address is refused at check time).
 */
export function allowedAddress(hostname: string, ctx: ProbeContext): Promise<LookupAddress> {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const why = refusal(host, ctx.allowPrivate);
    if (why) return Promise.reject(new TargetRefusedError(`connection refused by the outbound policy: ${why}`));
    return Promise.resolve({ address: host, family: isIP(host) });
  }
  return new Promise((resolve, reject) => {
    safeLookup(ctx.allowPrivate, ctx.resolve)(host, {}, (err, address, family) => {
      if (err) reject(err);
      else resolve({ address: address as string, family: family ?? 4 });
    });
  });
}

/** A timeout error the probe's `failure` classes as one. */
export function timedOut(timeoutSec: number): Error {
  return Object.assign(new Error(`timed out after ${timeoutSec} s`), { name: "TimeoutError" });
}

/**
 * The result of a check that got `reply` (the message, the datagram, the serving status) after
 * `started`: down with `problem` (the protocol's own verdict), else down at the first failed
 * assertion, else up.
 */
export async function judgeReply(
  ctx: ProbeContext,
  monitor: CheckedMonitor,
  started: number,
  reply: string,
  problem?: string,
  timings?: Partial<CheckTimings>,
): Promise<ProbeResult> {
  const response_time_ms = Math.round(performance.now() - started);
  return judgeNetworkReply(ctx, monitor, {
    reply,
    response_time_ms,
    timings: { ...timings, total_ms: response_time_ms },
    ...(problem ? { problem: { error: problem, error_class: "assertion" } } : {}),
  });
}
