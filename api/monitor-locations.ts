import { z } from "zod";
import type { ErrorDetail } from "./common";
import { type FieldTable, optionalField } from "./field-table";

/**
 * Where a monitor is checked from: `locations`, the checker locations that run its checks (the
 * server's built-in checker is one, named by the server's `--location`, `local` by default;
 * agents started with `uptime-server agent --location NAME` are the others), and
 * `failure_threshold`, how many of them must find it down before the monitor is down.
 * Confirmations count per location.
 */

/** A location's name: what `--location` takes. */
export const LOCATION_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
/** The rule of a location's name, in words. */
export const LOCATION_NAME_RULE = "must be 1 to 63 lowercase letters, digits, _ or - (starting with a letter or digit)";
/** Most locations one monitor is checked from. */
export const MAX_LOCATIONS = 20;

/** The writable fields (spread into the monitor's extension fields). */
export const monitorLocationFields = {
  /** Locations that check the monitor, a set; null (default): the server's built-in checker. */
  locations: z
    .array(z.string().regex(LOCATION_NAME, LOCATION_NAME_RULE))
    .min(1, "must name at least one location (null: the built-in checker)")
    .max(MAX_LOCATIONS, `must have at most ${MAX_LOCATIONS} locations`)
    .nullable(),
  /** Locations that must find the monitor down before it is down; at most the number of locations. */
  failure_threshold: z
    .int("must be a whole number")
    .min(1, `must be between 1 and ${MAX_LOCATIONS}`)
    .max(MAX_LOCATIONS, `must be between 1 and ${MAX_LOCATIONS}`),
};

/** The fields as stored and returned, defaults applied. */
export interface MonitorLocationSpec {
  locations: string[] | null;
  failure_threshold: number;
}

/** Defaults: the built-in checker, one failed location is enough. */
export const MONITOR_LOCATION_DEFAULTS: Readonly<MonitorLocationSpec> = Object.freeze({
  locations: null,
  failure_threshold: 1,
});

/** The read schema of the fields. */
export const monitorLocationRead = {
  locations: z.array(z.string()).nullable(),
  failure_threshold: z.int(),
  /** Locations of the monitor that no live checker serves now: their results are missing, and they never make the monitor down. */
  unchecked_locations: z.array(z.string()),
};

/** The field-table rows (spread into the monitor's). */
export const MONITOR_LOCATION_ROWS = {
  /** Locations that check the monitor; a set. Default: the server's built-in checker. */
  locations: {
    api: "locations",
    type: { type: "array", items: { type: "string" }, nullable: true },
    normal: "set",
    description:
      "Locations that check the monitor (the built-in checker's and agents'), a set; none: the built-in checker.",
    default: null,
  },
  /** How many locations must find the monitor down before it is down. Default 1. */
  failureThreshold: optionalField(
    "failure_threshold",
    "integer",
    "Locations that must find the monitor down (each after its confirmations) before it is down; 1..the number of locations.",
    MONITOR_LOCATION_DEFAULTS.failure_threshold,
  ),
  /** Locations of the monitor that no live checker serves now. */
  uncheckedLocations: {
    api: "unchecked_locations",
    type: { type: "array", items: { type: "string" } },
    outputOnly: true,
    description:
      "Locations of the monitor that no live checker serves now (their results are missing; they never make it down).",
  },
} as const satisfies FieldTable;

/** The monitor's locations: its own, or the built-in checker's. */
export function locationsOf(m: Pick<MonitorLocationSpec, "locations">, builtin: string): string[] {
  return m.locations ?? [builtin];
}

/** Rules beyond the schema: the threshold within the locations, heartbeat monitors judged by the server. */
export function locationViolations(m: MonitorLocationSpec & { type: string }): ErrorDetail[] {
  const count = m.locations?.length ?? 1;
  const out: ErrorDetail[] = [];
  if (m.type === "heartbeat" && m.locations !== null) {
    out.push({ field: "locations", message: "is not allowed for heartbeat monitors (the server judges their pings)" });
  }
  if (m.failure_threshold > count) {
    out.push({ field: "failure_threshold", message: `must be at most the number of locations (${count})` });
  }
  return out;
}

/** One checker location of the account, as `GET /api/v1/locations` lists it. */
export const LocationSchema = z
  .object({
    /** The name monitors use in `locations`. */
    name: z.string(),
    /** Whether the server's built-in checker runs this location. */
    builtin: z.boolean(),
    /** Whether monitors without `locations` are checked here: the server's own location (`--location`). */
    default: z.boolean(),
    /** Whether a live checker (the built-in one, or an agent in contact lately) serves it now. */
    live: z.boolean(),
    /**
     * Whether the location's checkers may reach private addresses: the server's
     * `--allow-private-targets` for the built-in checker, what its agents report for an agent
     * location; null while no agent of it has reported. Monitors' targets are judged by it.
     */
    allow_private_targets: z.boolean().nullable(),
    /**
     * Whether the location can run browser monitors: the server's machine for the built-in
     * checker, any of its agents' for an agent location (as they report); null while none has.
     */
    browser: z.boolean().nullable().optional(),
    /** Agents that served it, by their last contact (newest first). */
    agents: z.array(
      z
        .object({
          /** The id the agent process sends. */
          id: z.string(),
          first_seen_at: z.iso.datetime(),
          last_contact_at: z.iso.datetime(),
          live: z.boolean(),
          /** Whether this agent may reach private addresses; null before it reported. */
          allow_private_targets: z.boolean().nullable(),
          /** Whether this agent's machine can run browser checks; null before it reported. */
          browser: z.boolean().nullable().optional(),
        })
        .meta({ id: "LocationAgent" }),
    ),
  })
  .meta({ id: "Location" });
export type Location = z.infer<typeof LocationSchema>;

/**
 * Why a monitor (or a dry run) may not name `name` as a location: the account's locations and the
 * command that makes one (an agent key of that location, made where the server's database is).
 */
export function unknownLocationMessage(name: string, known: readonly string[]): string {
  return (
    `${name} is not one of the account's locations (${known.join(", ")}); an agent key makes it one: ` +
    `uptime-server keys create --db <database> --account <account> --scope agent --location ${name}`
  );
}
