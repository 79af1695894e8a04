import { z } from "zod";
import { type AssertionSource, assertionSourceViolations } from "./assertions";
import { absoluteUrl, type ErrorDetail } from "./common";
import { type FieldTable, nullableField } from "./field-table";

/**
 * Monitors of the network around a service: `ping` (ICMP echo: packet loss and round-trip time),
 * `smtp` (the banner, EHLO, STARTTLS and the certificate's days left) and `domain` (days to the
 * registration's expiry, read through RDAP). Each check's reply is one JSON object that
 * `json_body` assertions read (`$.packet_loss_pct`, `$.rtt_avg_ms`, `$.banner`, `$.days_left`, …).
 * `domain_expiry_days` also adds the registration's expiry to http and keyword monitors.
 */

/** The network types, in the order the README lists them. */
export const NETWORK_TYPES = ["ping", "smtp", "domain"] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];

/** Sources the assertions of each network type may read (the reply is a JSON object). */
export const NETWORK_ASSERTION_SOURCES: Readonly<Record<NetworkType, readonly AssertionSource[]>> = {
  ping: ["json_body", "text_body", "response_time"],
  smtp: ["json_body", "text_body", "response_time"],
  domain: ["json_body", "text_body", "response_time"],
};

/** Echo requests a ping check sends when `ping_count` is none. */
export const DEFAULT_PING_COUNT = 3;
/** Types whose registration expiry `domain_expiry_days` may check. */
export const DOMAIN_EXPIRY_TYPES: readonly string[] = ["http", "keyword", "domain"];

/** The URL shapes in words. */
export const NETWORK_URLS: Readonly<Record<NetworkType, string>> = {
  ping: "ping://host (a name or an IP address)",
  smtp: "smtp://host[:port] (STARTTLS; port 25 by default) or smtps://host[:port] (TLS; port 465 by default)",
  domain: "domain://registered.name (such as domain://example.com)",
};

/** A dotted name whose last label (the top-level domain) starts with a letter: not an IP address. */
export const DOMAIN_NAME = /^(?!-)[A-Za-z0-9-]{1,63}(?:\.(?!-)[A-Za-z0-9-]{1,63})*\.[A-Za-z][A-Za-z0-9-]{0,62}$/;

const SCHEMES: Readonly<Record<NetworkType, readonly string[]>> = {
  ping: ["ping:"],
  smtp: ["smtp:", "smtps:"],
  domain: ["domain:"],
};

/** The writable fields of their own. */
export const monitorNetworkFields = {
  /** ping monitors: echo requests per check, 1..20; null (default) sends 3. */
  ping_count: z
    .int("must be a whole number")
    .min(1, "must be between 1 and 20")
    .max(20, "must be between 1 and 20")
    .nullable(),
  /** smtp:// monitors: whether STARTTLS is required (true, the default when null) or not used (false). */
  smtp_starttls: z.boolean().nullable(),
  /** http, keyword and domain monitors: down when the domain's registration expires in fewer days (1..365). */
  domain_expiry_days: z
    .int("must be a whole number of days")
    .min(1, "must be between 1 and 365")
    .max(365, "must be between 1 and 365")
    .nullable(),
};

/** The fields as stored and returned. */
export interface MonitorNetworkSpec {
  ping_count: number | null;
  smtp_starttls: boolean | null;
  domain_expiry_days: number | null;
}

/** Their defaults (monitors stored before them read so too). */
export const MONITOR_NETWORK_DEFAULTS: Readonly<MonitorNetworkSpec> = Object.freeze({
  ping_count: null,
  smtp_starttls: null,
  domain_expiry_days: null,
});

/** The read schema (optional: servers from before these types omit them). */
export const monitorNetworkRead = {
  ping_count: z.int().nullable().optional(),
  smtp_starttls: z.boolean().nullable().optional(),
  domain_expiry_days: z.int().nullable().optional(),
};

/** The field-table rows (api/monitor.ts spreads them into `MONITOR_FIELDS`). */
export const MONITOR_NETWORK_ROWS = {
  /** ping monitors: echo requests per check, 1..20; none sends 3. */
  pingCount: nullableField("ping_count", "integer", "ping monitors: echo requests per check, 1..20; none: 3."),
  /** smtp:// monitors: STARTTLS required (true) or not used (false); none: required. */
  smtpStarttls: nullableField(
    "smtp_starttls",
    "boolean",
    "smtp:// monitors: whether STARTTLS is required (true) or not used (false); none: required.",
  ),
  /** http, keyword and domain monitors: down when the registration expires in fewer days (RDAP). */
  domainExpiryDays: nullableField(
    "domain_expiry_days",
    "integer",
    "http, keyword and domain monitors: down when the domain's registration (RDAP) expires in fewer days (1..365).",
  ),
} as const satisfies FieldTable;

/** Whether `type` is a network type. */
export function isNetworkType(type: string): type is NetworkType {
  return (NETWORK_TYPES as readonly string[]).includes(type);
}

/** Why `raw` is not a URL of network type `type`, or undefined. */
export function networkUrlProblem(type: NetworkType, raw: string): string | undefined {
  const words = `must be ${NETWORK_URLS[type]} for ${type} monitors`;
  return absoluteUrl(raw, (url) => {
    if (!SCHEMES[type].includes(url.protocol) || !url.hostname) return words;
    if ((url.pathname && url.pathname !== "/") || url.search || url.hash || url.username || url.password)
      return `${words}, with no path, query or credentials`;
    if (type !== "smtp" && url.port) return `${words}, with no port`;
    if (type === "domain" && !DOMAIN_NAME.test(url.hostname)) return `${words}: a dotted domain name, not an address`;
    return undefined;
  });
}

/** Their fields on a monitor of a type that does not take them (each type's rules are in api/monitor-types/). */
export function networkViolations(m: MonitorNetworkSpec & { type: string; url: string | null }): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  if (m.ping_count !== null && m.type !== "ping")
    out.push({ field: "ping_count", message: `is only allowed for ping monitors, not ${m.type}` });
  if (m.smtp_starttls !== null && !(m.type === "smtp" && m.url?.startsWith("smtp://")))
    out.push({
      field: "smtp_starttls",
      message: "is only allowed for smtp monitors with an smtp:// URL (smtps:// is TLS from the start)",
    });
  if (m.domain_expiry_days !== null && !DOMAIN_EXPIRY_TYPES.includes(m.type))
    out.push({
      field: "domain_expiry_days",
      message: `is only allowed for ${DOMAIN_EXPIRY_TYPES.join(", ")} monitors, not ${m.type}`,
    });
  return out;
}

/** A network monitor's body (they send none), and its assertions reading what its type does not answer. */
export function networkAssertionViolations(
  type: NetworkType,
  m: { body: string | null; assertions: readonly unknown[] },
): ErrorDetail[] {
  return [
    ...(m.body !== null ? [{ field: "body", message: `is not allowed for ${type} monitors (they send no body)` }] : []),
    ...assertionSourceViolations(type, NETWORK_ASSERTION_SOURCES[type], m.assertions),
  ];
}
