import { z } from "zod";
import {
  DISPLAY_NAME_FIELD,
  EXTERNAL_ID_FIELD,
  ExternalIdSchema,
  inWords,
  Timestamp,
  timestampRows,
  typeField,
} from "./common";
import { nullableField } from "./field-table";
import { assertionRead } from "./assertions";
import { apiRows, type FieldTable, normalize, sortedSet } from "./fields";
import { monitorExtensionRead } from "./monitor-extensions";
import {
  DEFAULT_TIMEOUT_SEC,
  HTTP_METHODS,
  MONITOR_FIELD_ROWS,
  monitorFieldRules,
  type MonitorFieldValues,
} from "./monitor-fields";
import { monitorNetworkRead } from "./monitor-network";
import { BROWSER_SCRIPT_FIELD } from "./monitor-browser";
import { GRPC_SERVICE_FIELD } from "./monitor-protocols";
import { monitorRetryRead } from "./monitor-retry";
import { monitorStepRead } from "./monitor-steps";
import { urlsInWords } from "./monitor-type-docs";
import { MONITOR_TYPES, type MonitorType, MonitorTypeSchema } from "./monitor-type-registry";

const { name, ...afterName } = monitorFieldRules;

/** Writable fields of a monitor, each with its own rule: `name`, `type`, then those of monitor-fields.ts. */
export const monitorFields = {
  name,
  /** One of `MONITOR_TYPES`. Immutable. */
  type: MonitorTypeSchema,
  ...afterName,
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

/** A monitor's `status`: checked, or paused (changed only by pause and resume). */
export const MONITOR_STATUSES = ["active", "paused"] as const;
/** A monitor's `health`: `pending` until the first check, then `up`, `degraded` or `down`. */
export const MONITOR_HEALTHS = ["pending", "up", "degraded", "down"] as const;

/**
 * The monitor's field table: every property of the `Monitor` resource, its API name and how it
 * is compared (see fields.ts). The provider, its schema and the README's table derive from it.
 */
export const MONITOR_FIELDS = {
  /** Display name (see `DISPLAY_NAME_FIELD`). Defaults to the resource's name. */
  name: DISPLAY_NAME_FIELD,
  /** One of `MONITOR_TYPES`. Changing it replaces the monitor. */
  type: typeField(MONITOR_TYPES, "monitor"),
  /** The `url` of each type, in words from the descriptors; none for heartbeat, multistep and browser. */
  url: nullableField("url", "string", urlsInWords()),
  ...MONITOR_FIELD_ROWS,
  /** Pause checks (true) or keep them running (false, the default). */
  paused: {
    type: { type: "boolean" },
    description: "Pauses (true) or resumes (false) the checks.",
    default: false,
  },
  /** `active` or `paused`, as the service reports it. */
  status: {
    api: "status",
    type: { type: "string", enum: MONITOR_STATUSES },
    outputOnly: true,
    description: `${inWords(MONITOR_STATUSES)}, as the service reports it.`,
  },
  /** `pending` until the first check, then `up`, `degraded` (slow) or `down` (as of the last refresh). */
  health: {
    api: "health",
    type: { type: "string", enum: MONITOR_HEALTHS },
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
export type MonitorSpec = MonitorFieldValues & { type: MonitorType };

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
    ...GRPC_SERVICE_FIELD.read,
    ...monitorNetworkRead,
    ...BROWSER_SCRIPT_FIELD.read,
    /** `active` or `paused`; changed only by pause and resume. */
    status: z.enum(MONITOR_STATUSES),
    /** `pending` until the first check, then `up`, `degraded` (up, but slower than `degraded_response_ms`) or `down`. */
    health: z.enum(MONITOR_HEALTHS),
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
