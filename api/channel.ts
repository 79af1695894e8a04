import { z } from "zod";
import { displayName, EXTERNAL_ID_FIELD, ExternalIdSchema, Timestamp } from "./common";
import type { FieldTable } from "./fields";

export const CHANNEL_TYPES = ["webhook", "slack", "email"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(2048, "must be at most 2048 characters")
  // The protocol rule, for the document (the URL parser lower-cases the scheme it checks).
  .meta({ pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+" });

/** Config of a `webhook` channel: events are POSTed as JSON to `url`, signed when `secret` is set. */
export const WebhookConfigSchema = z.strictObject({
  url: httpUrl,
  /** Key of the HMAC-SHA256 signature sent in `X-Signature`. */
  secret: z.string().min(16, "must be at least 16 characters").max(256).optional(),
});
/** Config of a `slack` channel: the incoming-webhook URL Slack gave you. */
export const SlackConfigSchema = z.strictObject({ webhook_url: httpUrl });
/** Config of an `email` channel. */
export const EmailConfigSchema = z.strictObject({ address: z.email("must be an email address").max(254) });

/** The config schema of each channel type. */
export const CHANNEL_CONFIG_SCHEMAS = {
  webhook: WebhookConfigSchema,
  slack: SlackConfigSchema,
  email: EmailConfigSchema,
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

/** The body of `POST /api/v1/channels`: `config` depends on `type`. */
export const CreateChannelSchema = z
  .discriminatedUnion(
    "type",
    [
      z.strictObject({ name, type: z.literal("webhook"), config: WebhookConfigSchema, external_id, notify_degraded }),
      z.strictObject({ name, type: z.literal("slack"), config: SlackConfigSchema, external_id, notify_degraded }),
      z.strictObject({ name, type: z.literal("email"), config: EmailConfigSchema, external_id, notify_degraded }),
    ],
    { error: `must be one of ${CHANNEL_TYPES.join(", ")}` },
  )
  .meta({ id: "CreateChannel" });
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
    // fields); the document states the three shapes a config may take.
    config: z.record(z.string(), z.unknown()).meta({ anyOf: CONFIG_SHAPES }).optional(),
    external_id,
    notify_degraded,
  })
  .meta({
    id: "UpdateChannel",
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
  /** Display name, 1..120 characters. Defaults to the resource's name. */
  name: {
    api: "name",
    type: { type: "string" },
    description: "Display name, 1..120 characters, kept exactly as written; not only spaces.",
    defaultDoc: "the resource name",
  },
  /** `webhook`, `slack` or `email`. Changing it replaces the channel. */
  type: {
    api: "type",
    type: { type: "string", enum: CHANNEL_TYPES },
    required: true,
    replaceOnChange: true,
    description: "`webhook`, `slack` or `email`; a change replaces the channel.",
  },
  /** The type's config (camelCase keys); stored as a secret. */
  config: {
    api: "config",
    type: { type: "object", additionalProperties: { type: "string" } },
    required: true,
    secret: true,
    description: "The type's config (see below); secret.",
  },
  /** The service's fingerprint of the config it holds: drift shows without revealing secrets. */
  configFingerprint: {
    api: "config_fingerprint",
    type: { type: "string" },
    outputOnly: true,
    description: "The service's fingerprint of the config it holds: drift shows without revealing secrets.",
  },
  /** The fingerprint the service returned right after the provider last wrote the config. */
  writtenFingerprint: {
    type: { type: "string" },
    outputOnly: true,
    description: "The service's fingerprint right after the provider last wrote the config: a different live one is drift.",
  },
  /** Also tell this channel when a monitor turns degraded (slow) and when it is fast again. Default false. */
  notifyDegraded: {
    api: "notify_degraded",
    type: { type: "boolean" },
    description: "Also hear `monitor.degraded` and `monitor.degraded_resolved` (slower than a monitor's `degradedResponseMs`, and back).",
    default: false,
  },
  /** When the channel was created. */
  createdAt: { api: "created_at", type: { type: "string" }, outputOnly: true, description: "When the channel was created." },
  /** When the channel last changed. */
  updatedAt: { api: "updated_at", type: { type: "string" }, outputOnly: true, description: "When the channel last changed." },
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
export const EVENT_TYPES = ["monitor.down", "monitor.up", "monitor.degraded", "monitor.degraded_resolved", "test"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The config in canonical JSON (keys sorted): what the server's `config_fingerprint` is an HMAC
 * of, with the channel id.
 */
export function canonicalConfigJson(config: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(config).sort(([a], [b]) => (a < b ? -1 : 1))));
}
