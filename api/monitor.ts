import { z } from "zod";
import {
  DISPLAY_NAME_FIELD,
  displayName,
  EXTERNAL_ID_FIELD,
  ExternalIdSchema,
  Timestamp,
  timestampRows,
} from "./common";
import { ASSERTION_ROWS, assertionFields, assertionRead, type StoredAssertion } from "./assertions";
import { MAX_URL_LENGTH, requestBody, requestHeaders, URL_TOO_LONG } from "./headers";
import { apiRows, type FieldTable, normalize, sortedSet } from "./fields";
import { MONITOR_EXTENSION_ROWS, monitorExtensionFields, monitorExtensionRead } from "./monitor-extensions";
import { MONITOR_NETWORK_ROWS, monitorNetworkFields, monitorNetworkRead } from "./monitor-network";
import { MONITOR_BROWSER_ROWS, monitorBrowserFields, monitorBrowserRead } from "./monitor-browser";
import { MONITOR_PROTOCOL_ROWS, monitorProtocolFields, monitorProtocolRead } from "./monitor-protocols";
import { MONITOR_RETRY_ROWS, monitorRetryFields, monitorRetryRead, type StoredRetry } from "./monitor-retry";
import { MONITOR_STEP_ROWS } from "./monitor-step-rows";
import { monitorStepFields, monitorStepRead, type StoredStep } from "./monitor-steps";

/** Kinds of monitor. `type` is fixed at creation. */
export const MONITOR_TYPES = [
  "http",
  "keyword",
  "tcp",
  "heartbeat",
  "dns",
  "multistep",
  "grpc",
  "websocket",
  "udp",
  "ping",
  "smtp",
  "domain",
  "browser",
] as const;
export const MonitorTypeSchema = z.enum(MONITOR_TYPES);
export type MonitorType = z.infer<typeof MonitorTypeSchema>;

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
/** Methods whose requests may carry a body. */
export const METHODS_WITH_BODY: readonly string[] = ["POST", "PUT", "PATCH", "DELETE"];

/** The interval floor of the public service; a server may lower it (tests only). */
export const MIN_INTERVAL_SEC = 30;
/** The interval ceiling: a day. */
export const MAX_INTERVAL_SEC = 86_400;
/** The bounds of `interval_sec`, in words: `30..86400`. */
export const INTERVAL_BOUNDS = `${MIN_INTERVAL_SEC}..${MAX_INTERVAL_SEC}`;
export const DEFAULT_TIMEOUT_SEC = 10;
export const DEFAULT_EXPECTED_STATUS_CODES = ["2xx", "3xx"] as const;

const STATUS_CLASS = /^[1-5]xx$/;
const TAG = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** One expected status: a code such as 204, or a class such as "2xx". */
export const StatusCodeRuleSchema = z.union([
  z.int().min(100, "must be a status code between 100 and 599").max(599, "must be a status code between 100 and 599"),
  z.string().regex(STATUS_CLASS, 'must be a status code or a class such as "2xx"'),
]);

/** Writable fields of a monitor, each with its own rule. */
export const monitorFields = {
  /** Display name, 1..120 characters, kept exactly as written. */
  name: displayName(),
  /** `http`, `keyword`, `tcp`, `heartbeat`, `dns`, `multistep`, `grpc`, `websocket`, `udp`, `ping`, `smtp`, `domain` or `browser`. Immutable. */
  type: MonitorTypeSchema,
  /** `http(s)://…` (http, keyword), `tcp://host:port` (tcp), `dns://name` (dns), `grpc(s)://host:port`, `ws(s)://…`, `udp://host:port`, `ping://host`, `smtp(s)://host[:port]`, `domain://name`; null for heartbeat, multistep and browser. */
  url: z.string().max(MAX_URL_LENGTH, URL_TOO_LONG).nullable(),
  /** Seconds between checks, {@link INTERVAL_BOUNDS}. */
  interval_sec: z
    .int("must be a whole number of seconds")
    .min(1, `must be between ${MIN_INTERVAL_SEC} and ${MAX_INTERVAL_SEC}`)
    .max(MAX_INTERVAL_SEC, `must be at most ${MAX_INTERVAL_SEC}`),
  /** Seconds a check may take, 1..60 and less than `interval_sec`. */
  timeout_sec: z.int("must be a whole number of seconds").min(1, "must be at least 1").max(60, "must be at most 60"),
  /** HTTP method of the probe. */
  method: z.enum(HTTP_METHODS),
  /** Request headers; names are stored lower-cased. At most 50. */
  headers: requestHeaders(
    "Request headers, at most 50; names are stored lower-cased. A secret header (its name is a credential: `Authorization`, `Proxy-Authorization`, `Cookie`, or a name containing `auth`, `key`, `token`, `secret`, `password`, `passwd`, `signature`, `session` or `credential`) is write-only: reads show its fingerprint, and a PATCH that sends a header's fingerprint back keeps the value it stands for.",
  ),
  /** Request body, only with methods that carry one (POST, PUT, PATCH, DELETE); a websocket monitor's message, a udp monitor's datagram. */
  body: requestBody().nullable(),
  /** Codes or classes that count as up; a set, stored sorted. */
  expected_status_codes: z.array(StatusCodeRuleSchema).min(1, "must list at least one code or class").max(50),
  /** Text the response must contain: required for `keyword` monitors, forbidden for others. */
  keyword: z.string().min(1, "must not be empty").max(1024).nullable(),
  /** Whether `keyword` matches case-sensitively. */
  keyword_case_sensitive: z.boolean(),
  /** Whether the probe follows redirects. */
  follow_redirects: z.boolean(),
  ...assertionFields,
  /** Channels notified when the monitor goes down or comes back; a set, stored sorted. */
  channel_ids: z.array(z.string().min(1).max(100)).max(50, "must have at most 50 channels"),
  /** Free labels; stored lower-cased and sorted, as a set. */
  tags: z
    .array(
      z
        .string()
        .max(50, "must be at most 50 characters")
        .regex(TAG, "must start with a letter or digit and use only letters, digits and _ . : -"),
    )
    .max(20, "must have at most 20 tags"),
  ...monitorExtensionFields,
  ...monitorStepFields,
  ...monitorRetryFields,
  ...monitorProtocolFields,
  ...monitorNetworkFields,
  ...monitorBrowserFields,
};

/** Fields a create body must carry: every other one has a default (see `MONITOR_FIELDS`). */
const CREATE_REQUIRED = ["name", "type", "interval_sec"] as const;

type Fields = typeof monitorFields;
type CreateShape = {
  [K in keyof Fields]: K extends (typeof CREATE_REQUIRED)[number] ? Fields[K] : z.ZodOptional<Fields[K]>;
};

/** The body of `POST /api/v1/monitors`: every field of `monitorFields`. Unknown fields are rejected. */
export const CreateMonitorSchema = z
  .strictObject(
    Object.fromEntries(
      Object.entries(monitorFields).map(([k, rule]) => [
        k,
        (CREATE_REQUIRED as readonly string[]).includes(k) ? rule : rule.optional(),
      ]),
    ) as CreateShape,
  )
  .extend({ external_id: ExternalIdSchema.optional() })
  .meta({ id: "CreateMonitor" });
export type CreateMonitor = z.input<typeof CreateMonitorSchema>;

/** The body of `PATCH /api/v1/monitors/<id>`: any writable field except `type`. */
export const UpdateMonitorSchema = CreateMonitorSchema.omit({ type: true }).partial().meta({ id: "UpdateMonitor" });
export type UpdateMonitor = z.input<typeof UpdateMonitorSchema>;

/**
 * The monitor's field table: every property of the `Monitor` resource, its API name and how it
 * is compared (see fields.ts). The provider, its schema and the README's table derive from it.
 */
export const MONITOR_FIELDS = {
  /** Display name, 1..120 characters. Defaults to the resource's name. */
  name: DISPLAY_NAME_FIELD,
  /** `http`, `keyword`, `tcp`, `heartbeat`, `dns`, `multistep`, `grpc`, `websocket`, `udp`, `ping`, `smtp`, `domain` or `browser`. Changing it replaces the monitor. */
  type: {
    api: "type",
    type: { type: "string", enum: MONITOR_TYPES },
    required: true,
    replaceOnChange: true,
    description:
      "`http`, `keyword`, `tcp`, `heartbeat`, `dns`, `multistep`, `grpc`, `websocket`, `udp`, `ping`, `smtp`, `domain` or `browser`; a change replaces the monitor.",
  },
  /** `http(s)://…` for http and keyword monitors, `tcp://host:port` for tcp, `dns://name` for dns; none for heartbeat. */
  url: {
    api: "url",
    type: { type: "string", nullable: true },
    description:
      "`http(s)://…`; `tcp://host:port` for tcp; `dns://name` for dns; `grpc://` or `grpcs://host:port` for grpc; `ws(s)://…` for websocket; `udp://host:port` for udp; `ping://host` for ping; `smtp://host[:port]` (STARTTLS) or `smtps://host[:port]` for smtp; `domain://name` for domain; required but for heartbeat, multistep and browser, which have none.",
    default: null,
  },
  /** Seconds between checks, {@link INTERVAL_BOUNDS}. */
  intervalSec: {
    api: "interval_sec",
    type: { type: "integer" },
    required: true,
    description: `Seconds between checks, ${INTERVAL_BOUNDS}.`,
  },
  /** Seconds a check may take, 1..60 and less than `intervalSec`. Default 10. */
  timeoutSec: {
    api: "timeout_sec",
    type: { type: "integer" },
    description: "Seconds a check may take, 1..60, less than `intervalSec`.",
    default: DEFAULT_TIMEOUT_SEC,
    // The default is not one constant: a short interval lowers it (toMonitorSpec).
    dynamicDefault: `${DEFAULT_TIMEOUT_SEC}, or \`intervalSec\` − 1 when the interval is shorter than ${DEFAULT_TIMEOUT_SEC + 1} seconds`,
  },
  /** HTTP method of the probe. Default `GET`. */
  method: {
    api: "method",
    type: { type: "string", enum: HTTP_METHODS },
    description: "HTTP method of the probe.",
    default: "GET",
  },
  /** Request headers (at most 50). Names are compared case-insensitively. Stored as a secret. */
  headers: {
    api: "headers",
    type: { type: "object", additionalProperties: { type: "string" } },
    secret: true,
    normal: "case-insensitive-keys",
    description:
      "Request headers (the metadata of grpc, the handshake's of websocket monitors), at most 50; names compared case-insensitively; secret.",
    default: {},
  },
  /** Request body, only with POST, PUT, PATCH or DELETE. Stored as a secret. */
  body: {
    api: "body",
    type: { type: "string", nullable: true },
    secret: true,
    description:
      "Request body, only with POST, PUT, PATCH, DELETE; the message a websocket monitor sends, the datagram of udp (required); secret.",
    default: null,
  },
  /** Status codes or classes that count as up, e.g. `[200, "3xx"]`; a set. Default `["2xx", "3xx"]`. */
  expectedStatusCodes: {
    api: "expected_status_codes",
    type: { type: "array", items: { oneOf: [{ type: "integer" }, { type: "string" }] } },
    normal: "set",
    description: 'Codes or classes that count as up, e.g. `[200, "3xx"]`; a set.',
    default: DEFAULT_EXPECTED_STATUS_CODES,
  },
  /** Text the response must contain: required for `keyword` monitors, forbidden for others. */
  keyword: {
    api: "keyword",
    type: { type: "string", nullable: true },
    description: "Text the response must contain: required for `keyword` monitors, forbidden otherwise.",
    default: null,
  },
  /** Whether `keyword` matches case-sensitively. Default false. */
  keywordCaseSensitive: {
    api: "keyword_case_sensitive",
    type: { type: "boolean" },
    description: "Whether `keyword` matches case-sensitively.",
    default: false,
  },
  ...ASSERTION_ROWS,
  /** Whether probes follow redirects. Default true. */
  followRedirects: {
    api: "follow_redirects",
    type: { type: "boolean" },
    description: "Whether probes follow redirects.",
    default: true,
  },
  /** Channels notified when the monitor goes down or comes back; a set. */
  channelIds: {
    api: "channel_ids",
    type: { type: "array", items: { type: "string" } },
    normal: "set",
    description: "Channels notified when the monitor goes down or comes back; a set.",
    default: [],
  },
  /** Free labels, compared case-insensitively; a set. */
  tags: {
    api: "tags",
    type: { type: "array", items: { type: "string" } },
    normal: "lowercase-set",
    description: "Free labels of letters, digits, `_ . : -`; compared lower-case; a set.",
    default: [],
  },
  ...MONITOR_EXTENSION_ROWS,
  ...MONITOR_STEP_ROWS,
  ...MONITOR_RETRY_ROWS,
  ...MONITOR_PROTOCOL_ROWS,
  ...MONITOR_NETWORK_ROWS,
  ...MONITOR_BROWSER_ROWS,
  /** Pause checks (true) or keep them running (false, the default). */
  paused: {
    type: { type: "boolean" },
    description: "Pauses (true) or resumes (false) the checks.",
    default: false,
  },
  /** `active` or `paused`, as the service reports it. */
  status: {
    api: "status",
    type: { type: "string", enum: ["active", "paused"] },
    outputOnly: true,
    description: "`active` or `paused`, as the service reports it.",
  },
  /** `pending` until the first check, then `up`, `degraded` (slow) or `down` (as of the last refresh). */
  health: {
    api: "health",
    type: { type: "string", enum: ["pending", "up", "degraded", "down"] },
    outputOnly: true,
    description:
      "`pending` until the first check, then `up`, `degraded` (slower than `degradedResponseMs`) or `down`, as of the last refresh.",
  },
  /** When the last check ran. */
  lastCheckedAt: {
    api: "last_checked_at",
    type: { type: "string", nullable: true },
    outputOnly: true,
    description: "When the last check ran.",
  },
  ...timestampRows("monitor"),
  /** The stack's mark on the monitor, set at create (see "Interrupted deployments"). */
  externalId: EXTERNAL_ID_FIELD,
} as const satisfies FieldTable;

/** Every writable field, defaults applied and normal forms taken: what the server stores. */
export type MonitorSpec = {
  -readonly [K in keyof Fields]: K extends "assertions"
    ? StoredAssertion[]
    : K extends "steps"
      ? StoredStep[]
      : K extends "retry"
        ? StoredRetry | null
        : z.output<Fields[K]>;
};

/** A monitor as the API returns it. */
export const MonitorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: MonitorTypeSchema,
    url: z.string().nullable(),
    interval_sec: z.int(),
    timeout_sec: z.int(),
    method: z.enum(HTTP_METHODS),
    headers: z.record(z.string(), z.string()).meta({
      description:
        "Request headers, names lower-cased. A secret header (its name is a credential: `authorization`, `proxy-authorization`, `cookie`, or a name containing `auth`, `key`, `token`, `secret`, `password`, `passwd`, `signature`, `session` or `credential`) is write-only: its value reads as `hmac-sha256:<64 hex>`, HMAC-SHA256 under a key derived from the server's secret key file of the monitor id, the name and the value; other headers read as written.",
    }),
    body: z.string().nullable(),
    expected_status_codes: z.array(z.union([z.int(), z.string()])),
    keyword: z.string().nullable(),
    keyword_case_sensitive: monitorFields.keyword_case_sensitive,
    follow_redirects: z.boolean(),
    ...assertionRead,
    channel_ids: z.array(z.string()),
    tags: z.array(z.string()),
    /** The client's mark (see `ExternalIdSchema`); null when none was set. */
    external_id: z.string().nullable(),
    ...monitorExtensionRead,
    ...monitorStepRead,
    ...monitorRetryRead,
    ...monitorProtocolRead,
    ...monitorNetworkRead,
    ...monitorBrowserRead,
    /** `active` or `paused`; changed only by pause and resume. */
    status: z.enum(["active", "paused"]),
    /** `pending` until the first check, then `up`, `degraded` (up, but slower than `degraded_response_ms`) or `down`. */
    health: z.enum(["pending", "up", "degraded", "down"]),
    last_checked_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "Monitor" });
export type Monitor = z.infer<typeof MonitorSchema>;

/** Sorted, de-duplicated codes first (numerically), then classes. */
export function normalizeStatusCodes(codes: readonly (number | string)[]): (number | string)[] {
  return sortedSet(codes);
}

/** Header names lower-cased, keys sorted. */
export function normalizeHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return normalize("case-insensitive-keys", headers) as Record<string, string>;
}

/** A sorted, de-duplicated copy: the normal form of the API's set-valued fields. */
export function normalizeSet(values: readonly string[]): string[] {
  return sortedSet(values);
}

/**
 * Applies defaults and normal forms to a validated create body merged over `base` (the stored
 * monitor, for an update).
 */
export function toMonitorSpec(
  input: z.output<typeof UpdateMonitorSchema> & { type: MonitorType },
  base?: MonitorSpec,
): MonitorSpec {
  const merged = { ...base, ...stripUndefined(input) } as Record<string, unknown>;
  const spec: Record<string, unknown> = {};
  for (const [, field] of apiRows(MONITOR_FIELDS)) {
    if (field.outputOnly) continue;
    spec[field.api] = normalize(field.normal, merged[field.api] ?? copy(field.default));
  }
  // The timeout's default depends on the interval: always below it.
  const interval = merged.interval_sec as number;
  spec.timeout_sec = merged.timeout_sec ?? Math.min(DEFAULT_TIMEOUT_SEC, Math.max(1, interval - 1));
  return spec as unknown as MonitorSpec;
}

/** A fresh copy of a default, so no caller shares (and mutates) the table's arrays. */
const copy = (v: unknown): unknown => (Array.isArray(v) ? [...v] : v && typeof v === "object" ? { ...v } : v);

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
