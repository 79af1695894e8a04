import { z } from "zod";
import { displayName, type ErrorDetail, ExternalIdSchema, Timestamp } from "./common";

/** Kinds of monitor. `type` is fixed at creation. */
export const MONITOR_TYPES = ["http", "keyword", "tcp"] as const;
export const MonitorTypeSchema = z.enum(MONITOR_TYPES);
export type MonitorType = z.infer<typeof MonitorTypeSchema>;

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
/** Methods whose requests may carry a body. */
export const METHODS_WITH_BODY: readonly string[] = ["POST", "PUT", "PATCH", "DELETE"];

/** The interval floor of the public service; a server may lower it (tests only). */
export const MIN_INTERVAL_SEC = 30;
export const MAX_INTERVAL_SEC = 86_400;
export const DEFAULT_TIMEOUT_SEC = 10;
export const DEFAULT_EXPECTED_STATUS_CODES = ["2xx", "3xx"] as const;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const STATUS_CLASS = /^[1-5]xx$/;
const TAG = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** One expected status: a code such as 204, or a class such as "2xx". */
export const StatusCodeRuleSchema = z.union([
  z
    .int()
    .min(100, "must be a status code between 100 and 599")
    .max(599, "must be a status code between 100 and 599"),
  z.string().regex(STATUS_CLASS, 'must be a status code or a class such as "2xx"'),
]);

/** Writable fields of a monitor, each with its own rule. */
export const monitorFields = {
  /** Display name, 1..120 characters, kept exactly as written. */
  name: displayName(),
  /** `http`, `keyword` or `tcp`. Immutable. */
  type: MonitorTypeSchema,
  /** `http(s)://…` for http and keyword monitors, `tcp://host:port` for tcp. */
  url: z.string().max(2048, "must be at most 2048 characters"),
  /** Seconds between checks, 30..86400. */
  interval_sec: z
    .int("must be a whole number of seconds")
    .min(1, `must be between ${MIN_INTERVAL_SEC} and ${MAX_INTERVAL_SEC}`)
    .max(MAX_INTERVAL_SEC, `must be at most ${MAX_INTERVAL_SEC}`),
  /** Seconds a check may take, 1..60 and less than `interval_sec`. */
  timeout_sec: z
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1")
    .max(60, "must be at most 60"),
  /** HTTP method of the probe. */
  method: z.enum(HTTP_METHODS),
  /** Request headers; names are stored lower-cased. At most 50. */
  headers: z
    .record(
      z.string().regex(HEADER_NAME, "must be a valid header name"),
      z
        .string()
        .max(8192)
        .regex(/^[^\r\n]*$/, "must not contain line breaks"),
    )
    .refine((h) => Object.keys(h).length <= 50, "must have at most 50 headers"),
  /** Request body, only with methods that carry one (POST, PUT, PATCH, DELETE). */
  body: z.string().max(16_384, "must be at most 16384 characters").nullable(),
  /** Codes or classes that count as up; a set, stored sorted. */
  expected_status_codes: z.array(StatusCodeRuleSchema).min(1, "must list at least one code or class").max(50),
  /** Text the response must contain: required for `keyword` monitors, forbidden for others. */
  keyword: z.string().min(1, "must not be empty").max(1024).nullable(),
  /** Whether `keyword` matches case-sensitively. */
  keyword_case_sensitive: z.boolean(),
  /** Whether the probe follows redirects. */
  follow_redirects: z.boolean(),
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
};

/** The body of `POST /api/v1/monitors`. Unknown fields are rejected. */
export const CreateMonitorSchema = z
  .strictObject({
    name: monitorFields.name,
    type: monitorFields.type,
    url: monitorFields.url,
    interval_sec: monitorFields.interval_sec,
    timeout_sec: monitorFields.timeout_sec.optional(),
    method: monitorFields.method.optional(),
    headers: monitorFields.headers.optional(),
    body: monitorFields.body.optional(),
    expected_status_codes: monitorFields.expected_status_codes.optional(),
    keyword: monitorFields.keyword.optional(),
    keyword_case_sensitive: monitorFields.keyword_case_sensitive.optional(),
    follow_redirects: monitorFields.follow_redirects.optional(),
    channel_ids: monitorFields.channel_ids.optional(),
    tags: monitorFields.tags.optional(),
    external_id: ExternalIdSchema.optional(),
  })
  .meta({ id: "CreateMonitor" });
export type CreateMonitor = z.input<typeof CreateMonitorSchema>;

/** The body of `PATCH /api/v1/monitors/<id>`: any writable field except `type`. */
export const UpdateMonitorSchema = CreateMonitorSchema.omit({ type: true })
  .partial()
  .meta({ id: "UpdateMonitor" });
export type UpdateMonitor = z.input<typeof UpdateMonitorSchema>;

/** Every writable field, defaults applied and normal forms taken: what the server stores. */
export interface MonitorSpec {
  name: string;
  type: MonitorType;
  url: string;
  interval_sec: number;
  timeout_sec: number;
  method: (typeof HTTP_METHODS)[number];
  headers: Record<string, string>;
  body: string | null;
  expected_status_codes: (number | string)[];
  keyword: string | null;
  keyword_case_sensitive: boolean;
  follow_redirects: boolean;
  channel_ids: string[];
  tags: string[];
}

/** A monitor as the API returns it. */
export const MonitorSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: MonitorTypeSchema,
    url: z.string(),
    interval_sec: z.int(),
    timeout_sec: z.int(),
    method: z.enum(HTTP_METHODS),
    headers: z.record(z.string(), z.string()),
    body: z.string().nullable(),
    expected_status_codes: z.array(z.union([z.int(), z.string()])),
    keyword: z.string().nullable(),
    keyword_case_sensitive: z.boolean(),
    follow_redirects: z.boolean(),
    channel_ids: z.array(z.string()),
    tags: z.array(z.string()),
    /** The client's mark (see `ExternalIdSchema`); null when none was set. */
    external_id: z.string().nullable(),
    /** `active` or `paused`; changed only by pause and resume. */
    status: z.enum(["active", "paused"]),
    /** `pending` until the first check, then `up` or `down`. */
    health: z.enum(["pending", "up", "down"]),
    last_checked_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "Monitor" });
export type Monitor = z.infer<typeof MonitorSchema>;

/** Sorted, de-duplicated codes first (numerically), then classes. */
export function normalizeStatusCodes(codes: readonly (number | string)[]): (number | string)[] {
  const numbers = [...new Set(codes.filter((c): c is number => typeof c === "number"))].sort((a, b) => a - b);
  const classes = [...new Set(codes.filter((c): c is string => typeof c === "string"))].sort();
  return [...numbers, ...classes];
}

/** Header names lower-cased, keys sorted. */
export function normalizeHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .map(([k, v]) => [k.toLowerCase(), v] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** A sorted, de-duplicated copy: the normal form of the API's set-valued fields. */
export function normalizeSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/**
 * Applies defaults and normal forms to a validated create body merged over `base` (the stored
 * monitor, for an update).
 */
export function toMonitorSpec(
  input: z.output<typeof UpdateMonitorSchema> & { type: MonitorType },
  base?: MonitorSpec,
): MonitorSpec {
  const merged = { ...base, ...stripUndefined(input) } as Partial<MonitorSpec> & Pick<MonitorSpec, "type">;
  const interval = merged.interval_sec as number;
  return {
    name: merged.name as string,
    type: merged.type,
    url: merged.url as string,
    interval_sec: interval,
    timeout_sec: merged.timeout_sec ?? Math.min(DEFAULT_TIMEOUT_SEC, Math.max(1, interval - 1)),
    method: merged.method ?? "GET",
    headers: normalizeHeaders(merged.headers ?? {}),
    body: merged.body ?? null,
    expected_status_codes: normalizeStatusCodes(
      merged.expected_status_codes ?? [...DEFAULT_EXPECTED_STATUS_CODES],
    ),
    keyword: merged.keyword ?? null,
    keyword_case_sensitive: merged.keyword_case_sensitive ?? false,
    follow_redirects: merged.follow_redirects ?? true,
    channel_ids: normalizeSet(merged.channel_ids ?? []),
    tags: normalizeSet((merged.tags ?? []).map((t) => t.toLowerCase())),
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

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
  if (m.type === "keyword" && m.keyword === null) {
    out.push({ field: "keyword", message: "is required for keyword monitors" });
  }
  if (m.type !== "keyword" && m.keyword !== null) {
    out.push({ field: "keyword", message: `is only allowed for keyword monitors, not ${m.type}` });
  }
  if (m.body !== null && !METHODS_WITH_BODY.includes(m.method)) {
    out.push({
      field: "body",
      message: `is not allowed with method ${m.method}; use one of ${METHODS_WITH_BODY.join(", ")}`,
    });
  }
  return out;
}

function checkUrl(type: MonitorType, raw: string): string | undefined {
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
