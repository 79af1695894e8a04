import { z } from "zod";
import {
  DISPLAY_NAME_FIELD,
  displayName,
  EXTERNAL_ID_FIELD,
  ExternalIdSchema,
  Timestamp,
  timestampRows,
  typeField,
} from "./common";
import { type FieldTable, optionalField, outputField, providerOutput } from "./field-table";

import {
  DiscordConfigSchema,
  EmailConfigSchema,
  OpsgenieConfigSchema,
  PagerDutyConfigSchema,
  SlackConfigSchema,
  TeamsConfigSchema,
  TelegramConfigSchema,
  WebhookConfigSchema,
} from "./channel-configs";

export * from "./channel-configs";

export const CHANNEL_TYPES = [
  "webhook",
  "slack",
  "email",
  "pagerduty",
  "opsgenie",
  "teams",
  "discord",
  "telegram",
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/**
 * What a channel can hear: `down` (an incident opens, its reminders and escalations), `recovered`
 * (it closes), `degraded` (slow, and fast again), `certificate_expiring` (an incident opened only
 * because the certificate expires soon: a channel with `down` hears those as well).
 */
export const CHANNEL_EVENTS = ["down", "recovered", "degraded", "certificate_expiring"] as const;
export type ChannelEvent = (typeof CHANNEL_EVENTS)[number];

/** The config schema of each channel type. */
export const CHANNEL_CONFIG_SCHEMAS = {
  webhook: WebhookConfigSchema,
  slack: SlackConfigSchema,
  email: EmailConfigSchema,
  pagerduty: PagerDutyConfigSchema,
  opsgenie: OpsgenieConfigSchema,
  teams: TeamsConfigSchema,
  discord: DiscordConfigSchema,
  telegram: TelegramConfigSchema,
} as const;

/** The configs as JSON Schema: a PATCH's `config` is one of them (the channel's type decides which). */
const CONFIG_SHAPES = Object.values(CHANNEL_CONFIG_SCHEMAS).map((schema) => {
  const { $schema: _, ...shape } = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" });
  return shape;
});

const name = displayName();
const external_id = ExternalIdSchema.optional();
/** Whether the channel also hears of degraded transitions (extension; default false). */
const notify_degraded = z.boolean().optional();
/** The events the channel hears (extension); default `down` and `recovered`, plus `degraded` with `notify_degraded`. */
const events = z
  .array(z.enum(CHANNEL_EVENTS, { error: `must be one of ${CHANNEL_EVENTS.join(", ")}` }))
  .max(CHANNEL_EVENTS.length * 2, "must have at most 8 events")
  .optional();
const common = { name, external_id, notify_degraded, events };

/**
 * `notify_degraded` and `events` written together agree about `degraded` (see
 * `channelEventsConflict`): stated in the document, as JSON Schema can say it.
 */
const EVENTS_AGREE = [true, false].map((notify) => ({
  if: { required: ["notify_degraded", "events"], properties: { notify_degraded: { const: notify } } },
  then: {
    properties: { events: notify ? { contains: { const: "degraded" } } : { not: { contains: { const: "degraded" } } } },
  },
}));

/** The body of `POST /api/v1/channels`: `config` depends on `type`. */
export const CreateChannelSchema = z
  .discriminatedUnion(
    "type",
    [
      z.strictObject({ ...common, type: z.literal("webhook"), config: WebhookConfigSchema }),
      z.strictObject({ ...common, type: z.literal("slack"), config: SlackConfigSchema }),
      z.strictObject({ ...common, type: z.literal("email"), config: EmailConfigSchema }),
      z.strictObject({ ...common, type: z.literal("pagerduty"), config: PagerDutyConfigSchema }),
      z.strictObject({ ...common, type: z.literal("opsgenie"), config: OpsgenieConfigSchema }),
      z.strictObject({ ...common, type: z.literal("teams"), config: TeamsConfigSchema }),
      z.strictObject({ ...common, type: z.literal("discord"), config: DiscordConfigSchema }),
      z.strictObject({ ...common, type: z.literal("telegram"), config: TelegramConfigSchema }),
    ],
    { error: `must be one of ${CHANNEL_TYPES.join(", ")}` },
  )
  .meta({ id: "CreateChannel", allOf: EVENTS_AGREE });
export type CreateChannel = z.infer<typeof CreateChannelSchema>;
export type ChannelConfig = CreateChannel["config"];

/**
 * The body of `PATCH /api/v1/channels/<id>` (extension): `name` and/or a whole new `config` for
 * the channel's type. `type` cannot change.
 */
export const UpdateChannelSchema = z
  .strictObject({
    name: name.optional(),
    // Validated against the channel's own type by the service (its messages name the type's
    // fields); the document states the shapes a config may take.
    config: z.record(z.string(), z.unknown()).meta({ anyOf: CONFIG_SHAPES }).optional(),
    external_id,
    notify_degraded,
    events,
  })
  .meta({
    id: "UpdateChannel",
    allOf: EVENTS_AGREE,
    description:
      "A new name and/or a whole new config. A PATCH whose values equal what the channel holds writes nothing: updated_at stays.",
  });
export type UpdateChannel = z.infer<typeof UpdateChannelSchema>;

/** A channel as the API returns it: secrets and token-bearing URLs masked. */
export const ChannelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(CHANNEL_TYPES),
    /** Masked: URLs keep their origin, secrets read `****`; `email.address` is shown. */
    config: z.record(z.string(), z.string()),
    /**
     * Extension: HMAC-SHA256, under the server's secret key, of the channel id and its unmasked
     * config in canonical JSON: it changes when the config changes, and cannot be used to test
     * guesses of a token offline. A client compares it with the value a write returned.
     */
    config_fingerprint: z.string(),
    /** The client's mark (see `ExternalIdSchema`); null when none was set. */
    external_id: z.string().nullable(),
    /** Whether the channel hears `monitor.degraded` and `monitor.degraded_resolved` (extension). */
    notify_degraded: z.boolean(),
    /** The events the channel hears (extension), in `CHANNEL_EVENTS` order. */
    events: z.array(z.enum(CHANNEL_EVENTS)),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "Channel" });
export type Channel = z.infer<typeof ChannelSchema>;

/**
 * The channel's field table (see fields.ts). Reads mask the config, so the provider compares it
 * through `configFingerprint` against `writtenFingerprint`, the value its last write returned.
 */
export const CHANNEL_FIELDS = {
  /** Display name (see `DISPLAY_NAME_FIELD`). Defaults to the resource's name. */
  name: DISPLAY_NAME_FIELD,
  /** One of `CHANNEL_TYPES`. Changing it replaces the channel. */
  type: typeField(CHANNEL_TYPES, "channel"),
  /** The type's config (camelCase keys); stored as a secret. */
  config: {
    api: "config",
    type: { type: "object", additionalProperties: { type: "string" } },
    required: true,
    secret: true,
    description: "The type's config (see below); secret.",
  },
  /** The service's fingerprint of the config it holds: drift shows without revealing secrets. */
  configFingerprint: outputField(
    "config_fingerprint",
    "string",
    "The service's fingerprint of the config it holds: drift shows without revealing secrets.",
  ),
  /** The fingerprint the service returned right after the provider last wrote the config. */
  writtenFingerprint: providerOutput(
    "The service's fingerprint right after the provider last wrote the config: a different live one is drift.",
  ),
  /** Also tell this channel when a monitor turns degraded (slow) and when it is fast again. Default false. */
  notifyDegraded: optionalField(
    "notify_degraded",
    "boolean",
    "Also hear `monitor.degraded` and `monitor.degraded_resolved` (slower than a monitor's `degradedResponseMs`, and back).",
    false,
  ),
  /**
   * The events the channel hears, a set: `down`, `recovered`, `degraded`, `certificate_expiring`.
   * Default `down` and `recovered` (and `degraded` when `notifyDegraded` is set).
   */
  events: {
    api: "events",
    type: { type: "array", items: { type: "string", enum: CHANNEL_EVENTS } },
    normal: "set",
    description:
      "The events the channel hears, a set of `down`, `recovered`, `degraded`, `certificate_expiring`; default `down`, `recovered` (and `degraded` with `notifyDegraded`).",
  },
  ...timestampRows("channel"),
  /** The stack's mark on the channel, set at create (see "Interrupted deployments"). */
  externalId: EXTERNAL_ID_FIELD,
} as const satisfies FieldTable;

/** The answer of `POST /api/v1/channels/<id>/test`. */
export const ChannelTestResultSchema = z
  .object({
    delivered: z.literal(true),
    status_code: z.int().nullable(),
    response_time_ms: z.int(),
  })
  .meta({ id: "ChannelTestResult" });
export type ChannelTestResult = z.infer<typeof ChannelTestResultSchema>;

/** Events a channel receives. */
export const EVENT_TYPES = [
  "monitor.down",
  "monitor.up",
  "monitor.degraded",
  "monitor.degraded_resolved",
  "test",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The config in canonical JSON (keys sorted): what the server's `config_fingerprint` is an HMAC
 * of, with the channel id.
 */
export function canonicalConfigJson(config: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(config).sort(([a], [b]) => (a < b ? -1 : 1))));
}

/** The problem of `events` and `notify_degraded` both written and disagreeing about `degraded`, if so. */
export function channelEventsConflict(
  events: readonly string[] | undefined | null,
  notifyDegraded: boolean | undefined | null,
): string | undefined {
  if (!Array.isArray(events) || typeof notifyDegraded !== "boolean" || notifyDegraded === events.includes("degraded"))
    return undefined;
  // An entry not known yet (a preview) or not an event (its own failure) decides nothing.
  if (!events.every((e) => (CHANNEL_EVENTS as readonly string[]).includes(e))) return undefined;
  return `contradicts events: ${notifyDegraded ? "add degraded to events" : "events lists degraded"}`;
}

/**
 * The events a channel hears, from what a client wrote: `events` when given; otherwise `down` and
 * `recovered`, and `degraded` when `notify_degraded` is set (the older flag keeps its meaning).
 */
export function resolveChannelEvents(
  events: readonly string[] | undefined | null,
  notifyDegraded: boolean | undefined | null,
): ChannelEvent[] {
  const chosen = new Set<string>(events ?? ["down", "recovered", ...(notifyDegraded ? ["degraded"] : [])]);
  return CHANNEL_EVENTS.filter((e) => chosen.has(e));
}
