import { z } from "zod";
import { type FieldTable, nullableField, objectType } from "./field-table";

/**
 * Reminders and escalation, on the monitor (so every channel of the monitor hears them alike):
 * while an incident stays open, `remind_every_sec` repeats the alert to the monitor's channels,
 * and each escalation step, `after` seconds into the incident, also alerts its `channels`.
 * Both are computed from the incident's start, so a restarted server sends the one due now.
 * A maintenance window covering the monitor silences both (MAINTENANCE_NOTE).
 */

/** What a maintenance window does to reminders and escalation (in the API's and the provider's docs). */
const MAINTENANCE_NOTE =
  "A maintenance window covering the monitor silences them: a reminder due inside it is skipped, and an escalation step reached inside it is sent when it ends if the incident is still open.";

/** One escalation step: `after` seconds down, also notify `channels` (channel ids). */
export const EscalationStepSchema = z
  .strictObject({
    /** Seconds after the incident opened. */
    after: z
      .int("must be a whole number of seconds")
      .min(0, "must be at least 0")
      .max(604_800, "must be at most 604800 (7 days)"),
    /** Channels alerted from then on (they also hear the resolve). */
    channels: z
      .array(z.string().min(1).max(100))
      .min(1, "must name at least one channel")
      .max(20, "must have at most 20 channels"),
  })
  .meta({ id: "EscalationStep" });
export type EscalationStep = z.infer<typeof EscalationStepSchema>;

/** The writable fields (spread into the monitor's extension fields). */
export const monitorAlertingFields = {
  /** Seconds between reminders while the monitor stays down; null (default) none. At least the server's minimum interval. */
  remind_every_sec: z
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1")
    .max(604_800, "must be at most 604800 (7 days)")
    .nullable()
    .meta({
      description: `Seconds between reminders while the monitor stays down; null (default) none. ${MAINTENANCE_NOTE}`,
    }),
  /** Escalation steps, at most 5. */
  escalation: z
    .array(EscalationStepSchema)
    .max(5, "must have at most 5 steps")
    .meta({
      description: `Escalation steps: \`after\` seconds into an incident, also alert \`channels\`. ${MAINTENANCE_NOTE}`,
    }),
};

/** The fields as stored and returned, defaults applied. */
export interface MonitorAlertingSpec {
  remind_every_sec: number | null;
  escalation: EscalationStep[];
}

/** Defaults: no reminder, no escalation. */
export const MONITOR_ALERTING_DEFAULTS: Readonly<MonitorAlertingSpec> = Object.freeze({
  remind_every_sec: null,
  escalation: [],
});

/** The read schema of the fields. */
export const monitorAlertingRead = {
  remind_every_sec: z.int().nullable(),
  escalation: z.array(z.object({ after: z.int(), channels: z.array(z.string()) }).meta({ id: "EscalationStepRead" })),
};

/** The field-table rows (spread into the monitor's). */
export const MONITOR_ALERTING_ROWS = {
  /** Seconds between reminders while the monitor stays down. Default none. */
  remindEverySec: nullableField(
    "remind_every_sec",
    "integer",
    "Seconds between reminders while the monitor stays down (at least the server's minimum interval); none by default. None is sent during a maintenance window.",
  ),
  /** Escalation steps: `{ after: <seconds down>, channels: [<channel id>…] }`, at most 5. */
  escalation: {
    api: "escalation",
    type: {
      type: "array",
      items: objectType(
        "EscalationStep",
        "One escalation step: from `after` seconds into an incident, `channels` are alerted too.",
        {
          after: { type: "integer", description: "Seconds after the incident opened, 0..604800." },
          channels: {
            type: "array",
            items: { type: "string" },
            description: "Channel ids alerted from then on (1..20); they also hear the resolve.",
          },
        },
        ["after", "channels"],
      ),
    },
    description:
      "Escalation steps: `{ after: <seconds down>, channels: [<channel id>…] }`, at most 5; each also alerts its channels (a step reached during a maintenance window, when it ends).",
    default: [],
  },
} as const satisfies FieldTable;

/** Rules beyond the schema: reminders no more often than checks may run. */
export function alertingViolations(
  m: MonitorAlertingSpec,
  minIntervalSec: number,
): { field: string; message: string }[] {
  if (m.remind_every_sec !== null && m.remind_every_sec < minIntervalSec) {
    return [{ field: "remind_every_sec", message: `must be at least ${minIntervalSec}` }];
  }
  return [];
}
