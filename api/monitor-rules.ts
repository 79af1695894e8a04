import { assertionViolations } from "./assertions";
import type { ErrorDetail } from "./common";
import { monitorExtensionViolations } from "./monitor-extensions";
import { isNetworkType, networkViolations } from "./monitor-network";
import { GRPC_SERVICE_FIELD } from "./monitor-protocols";
import { BROWSER_SCRIPT_FIELD } from "./monitor-browser";
import { retryViolations } from "./monitor-retry";
import { stepViolations } from "./monitor-steps";
import type { MonitorSpec } from "./monitor";
import { MAX_INTERVAL_SEC, METHODS_WITH_BODY, MIN_INTERVAL_SEC } from "./monitor-fields";
import { monitorTypeDescriptor, typesTaking } from "./monitor-type-registry";

/** Types whose `body` is a message sent, not an HTTP request's. */
const MESSAGE_TYPES = new Set<string>(["websocket", "udp"]);

/** `a, b and c`. */
const listed = (types: readonly string[]) =>
  types.length > 1 ? `${types.slice(0, -1).join(", ")} and ${types.at(-1)}` : (types[0] ?? "");

/** Fields only some types take: the types that do (from their descriptors), and whether a monitor sets it. */
const OWN_FIELDS = {
  assertions: { types: typesTaking("assertions"), set: (m: MonitorSpec) => m.assertions.length > 0 },
  keyword: { types: typesTaking("keyword"), set: (m: MonitorSpec) => m.keyword !== null },
} as const;

/** `field` set on a type whose descriptor does not take it. */
function ownFieldViolation(m: MonitorSpec, field: keyof typeof OWN_FIELDS): ErrorDetail[] {
  const { types, set } = OWN_FIELDS[field];
  return set(m) && !(types as readonly string[]).includes(m.type)
    ? [{ field, message: `is only allowed for ${listed(types)} monitors, not ${m.type}` }]
    : [];
}

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
  out.push(...ownFieldViolation(m, "assertions"));
  out.push(...assertionViolations(m));
  out.push(...stepViolations(m));
  out.push(...retryViolations(m));
  out.push(...GRPC_SERVICE_FIELD.violations(m));
  out.push(...networkViolations(m));
  out.push(...BROWSER_SCRIPT_FIELD.violations(m));
  out.push(...(descriptor.violations?.(m) ?? []));
  out.push(...ownFieldViolation(m, "keyword"));
  // A websocket monitor's body is its message and a udp monitor's its datagram: no method.
  if (
    m.body !== null &&
    !MESSAGE_TYPES.has(m.type) &&
    !isNetworkType(m.type) &&
    !METHODS_WITH_BODY.includes(m.method)
  ) {
    out.push({
      field: "body",
      message: `is not allowed with method ${m.method}; use one of ${METHODS_WITH_BODY.join(", ")}`,
    });
  }
  return out;
}
