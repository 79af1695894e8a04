import ipaddr from "ipaddr.js";
import { z } from "zod";
import { absoluteUrl, type ErrorDetail } from "./common";
import { type FieldTable, nullableField, optionalField } from "./field-table";
import {
  MONITOR_ALERTING_DEFAULTS,
  MONITOR_ALERTING_ROWS,
  type MonitorAlertingSpec,
  monitorAlertingFields,
  monitorAlertingRead,
} from "./monitor-alerting";
import {
  locationViolations,
  MONITOR_LOCATION_DEFAULTS,
  MONITOR_LOCATION_ROWS,
  type MonitorLocationSpec,
  monitorLocationFields,
  monitorLocationRead,
} from "./monitor-locations";

/**
 * Documented extensions of the monitor: heartbeat (push) and DNS monitors, certificate expiry,
 * alert confirmation. A server without them rejects these fields (unknown body fields are a 422),
 * and its OpenAPI document does not list them: that is how a client detects them.
 */

/** Record types a DNS monitor can check. */
export const DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "NS"] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** The most a heartbeat ping may be late (`grace_sec`): a day. */
export const MAX_GRACE_SEC = 86_400;

/** The writable extension fields, each with its own rule. */
export const monitorExtensionFields = {
  /** Heartbeat monitors: seconds a ping may be late beyond `interval_sec` before the monitor is down. */
  grace_sec: z
    .int("must be a whole number of seconds")
    .min(0, "must be at least 0")
    .max(MAX_GRACE_SEC, `must be at most ${MAX_GRACE_SEC}`),
  /** https and smtp monitors: alert when the certificate expires in fewer days than this; null (default) never. */
  ssl_expiry_days: z
    .int("must be a whole number of days")
    .min(1, "must be between 1 and 365")
    .max(365, "must be between 1 and 365")
    .nullable(),
  /** https monitors: whether the certificate must be valid (chain, name, dates). */
  verify_tls: z.boolean(),
  /** DNS monitors: the record type resolved. */
  dns_record_type: z.enum(DNS_RECORD_TYPES),
  /**
   * DNS monitors: the answers expected, a set (stored sorted, as written). Compared with the
   * answers in normal form (names case-insensitive without the trailing dot, IPv6 in any notation,
   * MX as `"<priority> <host>"`): the monitor is down unless the two sets are equal.
   */
  dns_expected_values: z
    .array(z.string().min(1, "must not be empty").max(1024, "must be at most 1024 characters"))
    .max(50, "must have at most 50 values"),
  /** DNS monitors: the resolver asked, `ip` or `ip:port` (`[v6]:port`); null uses the server's. */
  dns_resolver: z.string().max(100).nullable(),
  /** Consecutive failed checks before the monitor is down (an incident opens, channels hear). */
  confirmations: z.int("must be a whole number").min(1, "must be between 1 and 10").max(10, "must be between 1 and 10"),
  /** Consecutive passed checks before a down monitor is up again. */
  recovery_confirmations: z
    .int("must be a whole number")
    .min(1, "must be between 1 and 10")
    .max(10, "must be between 1 and 10"),
  ...monitorAlertingFields,
  ...monitorLocationFields,
};

/** The extension fields as the server stores and returns them, defaults applied. */
export interface MonitorExtensionSpec extends MonitorAlertingSpec, MonitorLocationSpec {
  grace_sec: number;
  ssl_expiry_days: number | null;
  verify_tls: boolean;
  dns_record_type: DnsRecordType;
  dns_expected_values: string[];
  dns_resolver: string | null;
  confirmations: number;
  recovery_confirmations: number;
}

/** Defaults of the extension fields. */
export const MONITOR_EXTENSION_DEFAULTS: Readonly<MonitorExtensionSpec> = Object.freeze({
  grace_sec: 60,
  ssl_expiry_days: null,
  verify_tls: true,
  dns_record_type: "A",
  dns_expected_values: [],
  dns_resolver: null,
  confirmations: 1,
  recovery_confirmations: 1,
  ...MONITOR_ALERTING_DEFAULTS,
  ...MONITOR_LOCATION_DEFAULTS,
});

const EXT = MONITOR_EXTENSION_DEFAULTS;

/** The extension rows of the monitor's field table (api/monitor.ts spreads them into it). */
export const MONITOR_EXTENSION_ROWS = {
  /** Heartbeat monitors: seconds a ping may be late beyond `intervalSec`. Default 60. */
  graceSec: optionalField(
    "grace_sec",
    "integer",
    `Heartbeat monitors: seconds a ping may be late beyond \`intervalSec\`, 0..${MAX_GRACE_SEC}.`,
    EXT.grace_sec,
  ),
  /** https monitors: down when the certificate expires in fewer days than this (1..365). Default none. */
  sslExpiryDays: nullableField(
    "ssl_expiry_days",
    "integer",
    "https and smtp monitors: down when the certificate expires in fewer days (1..365).",
  ),
  /** https monitors: whether the certificate must be valid. Default true. */
  verifyTls: optionalField(
    "verify_tls",
    "boolean",
    "https monitors: whether the certificate must be valid (chain, name, dates).",
    EXT.verify_tls,
  ),
  /** DNS monitors: the record type resolved. Default `A`. */
  dnsRecordType: {
    api: "dns_record_type",
    type: { type: "string", enum: DNS_RECORD_TYPES },
    description: "DNS monitors: A, AAAA, CNAME, MX, TXT or NS.",
    default: EXT.dns_record_type,
  },
  /** DNS monitors: the answers expected; a set (MX as `"10 mx.example.com"`). */
  dnsExpectedValues: {
    api: "dns_expected_values",
    type: { type: "array", items: { type: "string" } },
    normal: "set",
    description: 'DNS monitors: the answers expected, a set (MX as `"10 mx.example.com"`); required for dns.',
    default: EXT.dns_expected_values,
  },
  /** DNS monitors: the resolver asked, `ip` or `ip:port`. Default: the server's. */
  dnsResolver: nullableField(
    "dns_resolver",
    "string",
    "DNS monitors: the resolver asked, `ip` or `ip:port`; none: the server's.",
  ),
  /** Consecutive failed checks before the monitor is down. Default 1. */
  confirmations: optionalField(
    "confirmations",
    "integer",
    "Failed checks in a row before the monitor is down (an incident, notifications), 1..10.",
    EXT.confirmations,
  ),
  /** Consecutive passed checks before a down monitor is up again. Default 1. */
  recoveryConfirmations: optionalField(
    "recovery_confirmations",
    "integer",
    "Passed checks in a row before a down monitor is up again, 1..10.",
    EXT.recovery_confirmations,
  ),
  /** Heartbeat monitors: the secret URL the job pings (GET or POST); issued at creation. */
  pushUrl: {
    api: "push_url",
    type: { type: "string", nullable: true },
    outputOnly: true,
    secret: true,
    description: "Heartbeat monitors: the secret URL the job pings (GET or POST); issued at creation.",
  },
  ...MONITOR_ALERTING_ROWS,
  ...MONITOR_LOCATION_ROWS,
} as const satisfies FieldTable;

/** The read schema of the extension fields. */
export const monitorExtensionRead = {
  grace_sec: z.int(),
  ssl_expiry_days: z.int().nullable(),
  verify_tls: z.boolean(),
  dns_record_type: z.enum(DNS_RECORD_TYPES),
  dns_expected_values: z.array(z.string()),
  dns_resolver: z.string().nullable(),
  confirmations: z.int(),
  recovery_confirmations: z.int(),
  /** Never in a read: the push URL is answered once, by `POST …/monitors/<id>/push-token`. */
  push_url: z.string().nullable().optional(),
  ...monitorAlertingRead,
  ...monitorLocationRead,
};

/** The normal form of one expected DNS value, so `Example.COM.` and `example.com` are one value. */
export function normalizeDnsValue(type: DnsRecordType, value: string): string {
  // Answers and expected values both pass through here before they are compared.
  const v = value.trim();
  switch (type) {
    case "A":
    case "AAAA":
      return ipaddr.isValid(v) ? ipaddr.parse(v).toString() : v;
    case "CNAME":
    case "NS":
      return v.toLowerCase().replace(/\.$/, "");
    case "MX": {
      const [priority, host] = v.split(/\s+/);
      return host === undefined ? v : `${Number(priority)} ${host.toLowerCase().replace(/\.$/, "")}`;
    }
    case "TXT":
      return v;
  }
}

/** Parses `ip`, `ip:port` or `[v6]:port`; undefined when it is none of those. */
export function parseResolver(raw: string): { host: string; port: number } | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(raw);
  const plain = /^([^:]+)(?::(\d{1,5}))?$/.exec(raw);
  const [host, port] = bracketed ? [bracketed[1], bracketed[2]] : plain ? [plain[1], plain[2]] : [raw, undefined];
  if (!host || !ipaddr.isValid(host)) return undefined;
  const n = port === undefined ? 53 : Number(port);
  return n >= 1 && n <= 65_535 ? { host, port: n } : undefined;
}

/** Cross-field rules of the extensions, judged on the whole monitor after defaults. */
export function monitorExtensionViolations(
  m: MonitorExtensionSpec & { type: string; url: string | null },
): ErrorDetail[] {
  const out: ErrorDetail[] = [...locationViolations(m)];
  // smtp monitors read the certificate of STARTTLS or of smtps:// (see monitor-network.ts).
  const https = m.url?.startsWith("https://") ?? false;
  if (m.ssl_expiry_days !== null && !https && m.type !== "smtp") {
    out.push({ field: "ssl_expiry_days", message: "is only allowed for https:// monitors" });
  }
  if (m.type === "dns") {
    if (m.dns_expected_values.length === 0) {
      out.push({ field: "dns_expected_values", message: "must list at least one value for dns monitors" });
    }
    m.dns_expected_values.forEach((raw, i) => {
      const v = normalizeDnsValue(m.dns_record_type, raw);
      if (
        (m.dns_record_type === "A" && !ipaddr.IPv4.isValidFourPartDecimal(v)) ||
        (m.dns_record_type === "AAAA" && !(ipaddr.isValid(v) && ipaddr.parse(v).kind() === "ipv6"))
      ) {
        out.push({
          field: `dns_expected_values[${i}]`,
          message: `must be an IPv${m.dns_record_type === "A" ? 4 : 6} address for ${m.dns_record_type} records`,
        });
      }
      if (m.dns_record_type === "MX" && !/^\d{1,5} \S+$/.test(v)) {
        out.push({ field: `dns_expected_values[${i}]`, message: 'must be "<priority> <host>" for MX records' });
      }
    });
    if (m.dns_resolver !== null && !parseResolver(m.dns_resolver)) {
      out.push({ field: "dns_resolver", message: "must be an IP address, optionally with :port ([v6]:port)" });
    }
  } else {
    if (m.dns_expected_values.length > 0)
      out.push({ field: "dns_expected_values", message: `is only allowed for dns monitors, not ${m.type}` });
    if (m.dns_resolver !== null)
      out.push({ field: "dns_resolver", message: `is only allowed for dns monitors, not ${m.type}` });
  }
  return out;
}

/** Whether `url` is a valid `dns://host.name` (no port, path or query). */
export function checkDnsUrl(raw: string): string | undefined {
  return absoluteUrl(raw, (url) =>
    url.protocol !== "dns:" || !url.hostname || url.port || (url.pathname && url.pathname !== "/") || url.search
      ? "must be dns://host.name for dns monitors"
      : undefined,
  );
}
