import { assertionViolations } from "./assertions";
import type { ErrorDetail } from "./common";
import { checkDnsUrl, monitorExtensionViolations } from "./monitor-extensions";
import { isNetworkType, networkUrlProblem, networkViolations } from "./monitor-network";
import { isProtocolType, protocolUrlProblem, protocolViolations } from "./monitor-protocols";
import { browserViolations } from "./monitor-browser";
import { retryViolations } from "./monitor-retry";
import { stepViolations } from "./monitor-steps";
import { MAX_INTERVAL_SEC, METHODS_WITH_BODY, MIN_INTERVAL_SEC, type MonitorSpec, type MonitorType } from "./monitor";

/** Types whose `body` is a message sent, not an HTTP request's. */
const MESSAGE_TYPES = new Set<string>(["websocket", "udp"]);

/**
 * Rules that span fields, checked on the whole monitor after defaults (so a PATCH is judged
 * against the monitor it produces). `minIntervalSec` is the server's floor.
 */
export function monitorRuleViolations(m: MonitorSpec, minIntervalSec = MIN_INTERVAL_SEC): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  if (m.interval_sec < minIntervalSec) {
    out.push({ field: "interval_sec", message: `must be between ${minIntervalSec} and ${MAX_INTERVAL_SEC}` });
  }
  if (m.timeout_sec >= m.interval_sec) {
    out.push({ field: "timeout_sec", message: `must be less than interval_sec (${m.interval_sec})` });
  }
  const urlProblem = checkUrl(m.type, m.url);
  if (urlProblem) out.push({ field: "url", message: urlProblem });
  out.push(...monitorExtensionViolations(m));
  out.push(...assertionViolations(m));
  out.push(...stepViolations(m));
  out.push(...retryViolations(m));
  out.push(...protocolViolations(m));
  out.push(...networkViolations(m));
  out.push(...browserViolations(m));
  if (m.type === "keyword" && m.keyword === null) {
    out.push({ field: "keyword", message: "is required for keyword monitors" });
  }
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

function checkUrl(type: MonitorType, raw: string | null): string | undefined {
  if (type === "heartbeat") return raw === null ? undefined : "is not allowed for heartbeat monitors (they are pinged, not probed)";
  if (type === "multistep") return raw === null ? undefined : "is not allowed for multistep monitors (each step has its own)";
  if (type === "browser") return raw === null ? undefined : "is not allowed for browser monitors (the script opens its pages)";
  if (raw === null) return `is required for ${type} monitors`;
  if (type === "dns") return checkDnsUrl(raw);
  if (isProtocolType(type)) return protocolUrlProblem(type, raw);
  if (isNetworkType(type)) return networkUrlProblem(type, raw);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (type === "tcp") {
    if (url.protocol !== "tcp:" || !url.hostname || !url.port)
      return "must be tcp://host:port for tcp monitors";
    if (url.pathname && url.pathname !== "/" && url.pathname !== "")
      return "must be tcp://host:port with no path";
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `must start with http:// or https:// for ${type} monitors`;
  if (!url.hostname) return "must name a host";
  return undefined;
}
