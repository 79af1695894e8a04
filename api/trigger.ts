import { z } from "zod";
import { TAG_MAX } from "./common";
import { MonitorTestResultSchema } from "./dry-run";
import { LOCATION_NAME, LOCATION_NAME_RULE } from "./monitor-locations";

/**
 * The trigger (extension): runs deployed monitors now, the ones a list of ids or a tag selects,
 * at each of their locations or at one named location, and answers when every check ended. A
 * post-deploy gate: `pulumi-uptime trigger` calls it after `pulumi up`. Without `record` nothing
 * is stored (like a dry run); with it each check is a heartbeat that moves health and may alert.
 */

/** Most checks one trigger runs (monitors times locations); a larger selection is a 422. */
export const MAX_TRIGGER_CHECKS = 200;

const TRIGGER_FIELDS = {
  /** These monitors (of the account); with `tag` too, those of them that carry it. */
  monitor_ids: z
    .array(z.string().regex(/^mon_[0-9a-z]+$/, "must be a monitor id (mon_…)"))
    .min(1, "must name at least one monitor")
    .max(MAX_TRIGGER_CHECKS, `must name at most ${MAX_TRIGGER_CHECKS} monitors`),
  /** The monitors carrying this tag (compared lower-case). */
  tag: z.string().min(1, "must not be empty").max(TAG_MAX, `must be at most ${TAG_MAX} characters`),
  /** Run every check at this location instead of at each monitor's own locations. */
  location: z.string().regex(LOCATION_NAME, LOCATION_NAME_RULE).optional(),
  /** Store each check as a heartbeat (it moves health and may alert); default false, nothing stored. */
  record: z.boolean().default(false),
};

/** The body of `POST /api/v1/monitors/trigger`, as the server validates it: ids, a tag, or both. */
export const TriggerRequestSchema = z
  .strictObject({
    ...TRIGGER_FIELDS,
    monitor_ids: TRIGGER_FIELDS.monitor_ids.optional(),
    tag: TRIGGER_FIELDS.tag.optional(),
  })
  .refine((b) => b.monitor_ids !== undefined || b.tag !== undefined, {
    message: "give monitor_ids, tag or both",
    path: ["monitor_ids"],
  });

/**
 * The body as the OpenAPI document states it: the same fields, with `monitor_ids` or `tag`
 * required (JSON Schema cannot state the refinement; the server's messages are the refinement's).
 */
export const DocumentedTriggerRequestSchema = z
  .union([
    z.strictObject({ ...TRIGGER_FIELDS, tag: TRIGGER_FIELDS.tag.optional() }),
    z.strictObject({ ...TRIGGER_FIELDS, monitor_ids: TRIGGER_FIELDS.monitor_ids.optional() }),
  ])
  .meta({ id: "TriggerRequest" });

export type TriggerRequest = z.output<typeof TriggerRequestSchema>;

/** One check a trigger ran: which monitor, where, and its result as a dry run reports it. */
export const TriggerRunSchema = MonitorTestResultSchema.extend({
  monitor_id: z.string(),
  /** The monitor's name. */
  name: z.string(),
  /** The monitor's target, as a read of the monitor shows it; for a multi-step monitor, its first step's URL. */
  url: z.string().nullable(),
  /** The location that ran the check. */
  location: z.string(),
  /** Whether the check was stored as a heartbeat (`record`). */
  recorded: z.boolean(),
}).meta({ id: "TriggerRun" });

export type TriggerRun = z.infer<typeof TriggerRunSchema>;

/** A selected monitor the trigger did not run, and why (paused). */
export const TriggerSkipSchema = z
  .object({ monitor_id: z.string(), name: z.string(), reason: z.string() })
  .meta({ id: "TriggerSkip" });

/** The answer of a trigger: every check it ran, in monitor then location order. */
export const TriggerResultSchema = z
  .object({
    runs: z.array(TriggerRunSchema),
    skipped: z.array(TriggerSkipSchema),
    /** No check found its monitor down. */
    passed: z.boolean(),
  })
  .meta({ id: "TriggerResult" });

export type TriggerResult = z.infer<typeof TriggerResultSchema>;
