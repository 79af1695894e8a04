import { assertionViolations } from "./assertions";
import type { ErrorDetail } from "./common";
import { monitorExtensionViolations } from "./monitor-extensions";
import { isNetworkType, networkViolations } from "./monitor-network";
import { protocolViolations } from "./monitor-protocols";
import { browserViolations } from "./monitor-browser";
import { retryViolations } from "./monitor-retry";
import { stepViolations } from "./monitor-steps";
import { MAX_INTERVAL_SEC, METHODS_WITH_BODY, MIN_INTERVAL_SEC, type MonitorSpec } from "./monitor";
import { monitorTypeDescriptor } from "./monitor-types/registry";

/** Types whose `body` is a message sent, not an HTTP request's. */
const MESSAGE_TYPES = new Set<string>(["websocket", "udp"]);

/**
 * Rules that span fields, checked on the whole monitor after defaults (so a PATCH is judged
 * against the monitor it produces). `minIntervalSec` is the server's floor. Those every type
 * shares are here; a type's own (its url, its required fields) are in its descriptor
 * (api/monitor-types/<type>.ts).
 */
export function monitorRuleViolations(m: MonitorSpec, minIntervalSec = MIN_INTERVAL_SEC): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  if (m.interval_sec < minIntervalSec) {
    out.push({ field: "interval_sec", message: `must be between ${minIntervalSec} and ${MAX_INTERVAL_SEC}` });
  }
  if (m.timeout_sec >= m.interval_sec) {
    out.push({ field: "timeout_sec", message: `must be less than interval_sec (${m.interval_sec})` });
  }
  const descriptor = monitorTypeDescriptor(m.type);
  const urlProblem = descriptor.checkUrl(m.url);
  if (urlProblem) out.push({ field: "url", message: urlProblem });
  out.push(...monitorExtensionViolations(m));
  out.push(...assertionViolations(m));
  out.push(...stepViolations(m));
  out.push(...retryViolations(m));
  out.push(...protocolViolations(m));
  out.push(...networkViolations(m));
  out.push(...browserViolations(m));
  out.push(...(descriptor.violations?.(m) ?? []));
  if (m.type !== "keyword" && m.keyword !== null) {
    out.push({ field: "keyword", message: `is only allowed for keyword monitors, not ${m.type}` });
  }
  // A websocket monitor's body is its message and a udp monitor's its datagram: no method.
  if (m.body !== null && !MESSAGE_TYPES.has(m.type) && !isNetworkType(m.type) && !METHODS_WITH_BODY.includes(m.method)) {
    out.push({
      field: "body",
      message: `is not allowed with method ${m.method}; use one of ${METHODS_WITH_BODY.join(", ")}`,
    });
  }
  return out;
}
