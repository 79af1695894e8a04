import { RRule } from "rrule";
import { z } from "zod";
import {
  documentOnlyMeta,
  type ErrorDetail,
  EXTERNAL_ID_FIELD,
  ExternalIdSchema,
  NAME_MAX,
  Timestamp,
  timestampRows,
} from "./common";
import { type FieldTable, nullableField, outputField, requiredField } from "./field-table";

/**
 * The time zones a window may name: the IANA zones of this runtime's ICU (canonical names), and
 * `UTC`. Exactly these, so the document's enum is the rule the server applies.
 */
export const TIME_ZONES: readonly [string, ...string[]] = [
  "UTC",
  ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC"),
];

/** Whether `zone` is one of `TIME_ZONES` (`UTC`, `Europe/Berlin`, …). */
export function isTimeZone(zone: string): boolean {
  return TIME_ZONES.includes(zone);
}

const DAY = "(?:[+-]?[1-9][0-9]?)?(?:MO|TU|WE|TH|FR|SA|SU)";
const NUMS = "[+-]?[0-9]{1,3}(?:,[+-]?[0-9]{1,3})*";
/**
 * The RRULE values the server takes: FREQ first, then known parts, upper case (what the document
 * states as `pattern`; `rruleProblem` also checks that the rule parses).
 */
export const RRULE_PATTERN =
  "^(?:RRULE:)?FREQ=(?:YEARLY|MONTHLY|WEEKLY|DAILY|HOURLY|MINUTELY|SECONDLY)" +
  `(?:;(?:INTERVAL|COUNT)=[1-9][0-9]{0,3}|;WKST=(?:MO|TU|WE|TH|FR|SA|SU)|;BYDAY=${DAY}(?:,${DAY})*` +
  `|;(?:BYMONTH|BYMONTHDAY|BYYEARDAY|BYWEEKNO|BYHOUR|BYMINUTE|BYSECOND|BYSETPOS)=${NUMS}|;UNTIL=[0-9]{8}(?:T[0-9]{6}Z?)?)*$`;

/** Why `rule` is not a usable RFC 5545 RRULE value, or undefined when it is. */
export function rruleProblem(rule: string): string | undefined {
  if (/DTSTART|TZID|\n/i.test(rule)) return "must be the RRULE value only (starts_at and time_zone give DTSTART)";
  try {
    const options = RRule.parseString(rule.replace(/^RRULE:/i, ""));
    if (options.freq === undefined) {
      return /(^|;)FREQ=/i.test(rule)
        ? "FREQ must be YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY or SECONDLY"
        : "must set FREQ (e.g. FREQ=WEEKLY;BYDAY=SU)";
    }
    new RRule(options);
  } catch (err) {
    return `is not an RFC 5545 RRULE: ${(err as Error).message}`;
  }
  // Parsed, yet beyond what the document promises (lower case, unknown or repeated forms).
  if (!new RegExp(RRULE_PATTERN).test(rule))
    return "must be FREQ=… followed by ;KEY=VALUE parts in upper case (see the pattern)";
  return undefined;
}

/** An IANA time zone of `TIME_ZONES`: a string to the provider, an `enum` in the OpenAPI document. */
const TimeZoneSchema = z.string().refine(isTimeZone, "must be an IANA time zone such as UTC or Europe/Berlin");
documentOnlyMeta.add(TimeZoneSchema, { enum: [...TIME_ZONES] });

/** Writable fields of a maintenance window, each with its own rule. */
export const maintenanceWindowFields = {
  /** Display name, 1..{@link NAME_MAX} characters. */
  name: z.string().trim().min(1, "must not be empty").max(NAME_MAX, `must be at most ${NAME_MAX} characters`),
  /** Monitors the window silences; a set, stored sorted. */
  monitor_ids: z
    .array(z.string().min(1).max(100))
    .min(1, "must list at least one monitor")
    .max(500, "must have at most 500 monitors"),
  /** Start of the (first) window, RFC 3339. */
  starts_at: z.iso.datetime({ offset: true, message: "must be an RFC 3339 timestamp" }),
  /** End of the (first) window, RFC 3339, after `starts_at`; each repetition lasts as long. */
  ends_at: z.iso.datetime({ offset: true, message: "must be an RFC 3339 timestamp" }),
  /** Repeats the window: an RFC 5545 RRULE value such as `FREQ=WEEKLY;BYDAY=SU`; null for once. */
  rrule: z
    .string()
    .max(500, "must be at most 500 characters")
    .refine((r) => rruleProblem(r) === undefined, { error: (i) => rruleProblem(String(i.input)) ?? "is invalid" })
    .meta({ pattern: RRULE_PATTERN })
    .nullable(),
  /** IANA time zone in which `rrule` repeats (wall-clock time, across DST changes). */
  time_zone: TimeZoneSchema,
};

/** The body of `POST /api/v1/maintenance-windows` (extension). */
export const CreateMaintenanceWindowSchema = z
  .strictObject({
    name: maintenanceWindowFields.name,
    monitor_ids: maintenanceWindowFields.monitor_ids,
    starts_at: maintenanceWindowFields.starts_at,
    ends_at: maintenanceWindowFields.ends_at,
    rrule: maintenanceWindowFields.rrule.optional(),
    time_zone: maintenanceWindowFields.time_zone.optional(),
    external_id: ExternalIdSchema.optional(),
  })
  .meta({ id: "CreateMaintenanceWindow" });
export type CreateMaintenanceWindow = z.input<typeof CreateMaintenanceWindowSchema>;

/** The body of `PATCH /api/v1/maintenance-windows/<id>`: any writable field. */
export const UpdateMaintenanceWindowSchema = CreateMaintenanceWindowSchema.partial().meta({
  id: "UpdateMaintenanceWindow",
});
export type UpdateMaintenanceWindow = z.input<typeof UpdateMaintenanceWindowSchema>;

/** Every writable field with defaults applied: what the server stores. */
export interface MaintenanceWindowSpec {
  name: string;
  monitor_ids: string[];
  starts_at: string;
  ends_at: string;
  rrule: string | null;
  time_zone: string;
}

/** A maintenance window as the API returns it. */
export const MaintenanceWindowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    monitor_ids: z.array(z.string()),
    starts_at: z.string(),
    ends_at: z.string(),
    rrule: z.string().nullable(),
    time_zone: z.string(),
    /** Whether the window is in effect now. */
    active: z.boolean(),
    /** The client's mark (see `external_id` of monitors), or null. */
    external_id: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "MaintenanceWindow" });
export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>;

/** Defaults and normal forms over `base` (the stored window, for an update). */
export function toMaintenanceWindowSpec(
  input: UpdateMaintenanceWindow,
  base?: MaintenanceWindowSpec,
): MaintenanceWindowSpec {
  const pick = <K extends keyof MaintenanceWindowSpec>(k: K, fallback: MaintenanceWindowSpec[K]) =>
    (input[k] !== undefined ? input[k] : (base?.[k] ?? fallback)) as MaintenanceWindowSpec[K];
  return {
    name: pick("name", ""),
    monitor_ids: [...new Set(pick("monitor_ids", []))].sort(),
    starts_at: pick("starts_at", ""),
    ends_at: pick("ends_at", ""),
    rrule: pick("rrule", null),
    time_zone: pick("time_zone", "UTC"),
  };
}

/** Rules spanning fields: the end after the start. */
export function maintenanceWindowViolations(w: MaintenanceWindowSpec): ErrorDetail[] {
  if (Date.parse(w.ends_at) <= Date.parse(w.starts_at)) {
    return [{ field: "ends_at", message: `must be after the start (${w.starts_at})` }];
  }
  return [];
}

/** The maintenance window's field table (see fields.ts). */
export const MAINTENANCE_WINDOW_FIELDS = {
  /** Display name, 1..{@link NAME_MAX} characters. Defaults to the resource's name. */
  name: {
    api: "name",
    type: { type: "string" },
    description: `Display name, 1..${NAME_MAX} characters.`,
    defaultDoc: "the resource name",
  },
  /** Monitors the window silences; a set. */
  monitorIds: {
    api: "monitor_ids",
    type: { type: "array", items: { type: "string" } },
    required: true,
    normal: "set",
    description: "Monitors the window silences; a set of at least one.",
  },
  /** Start of the (first) window, RFC 3339. */
  startsAt: requiredField("starts_at", "string", "RFC 3339 start of the (first) window."),
  /** End of the (first) window, RFC 3339, after `startsAt`; each repetition lasts as long. */
  endsAt: requiredField("ends_at", "string", "RFC 3339 end, after `startsAt`; each repetition lasts as long."),
  /** Repeats the window: an RFC 5545 RRULE value such as `FREQ=WEEKLY;BYDAY=SU`. */
  rrule: nullableField(
    "rrule",
    "string",
    "RFC 5545 RRULE value, e.g. `FREQ=WEEKLY;BYDAY=SU`; none for a single window.",
  ),
  /** IANA time zone in which `rrule` repeats (wall-clock time across DST changes). Default `UTC`. */
  timeZone: {
    api: "time_zone",
    type: { type: "string" },
    description: "IANA zone in which `rrule` repeats (wall-clock time across DST changes).",
    default: "UTC",
  },
  /** Whether the window is in effect (as of the last refresh). */
  active: outputField("active", "boolean", "Whether the window is in effect (as of the last refresh)."),
  externalId: EXTERNAL_ID_FIELD,
  ...timestampRows("window"),
} as const satisfies FieldTable;
