import { z } from "zod";
import { MAX_URL_LENGTH, URL_TOO_LONG } from "./headers";

/**
 * The config of each channel type. Every value is a string, so a config stays a flat map of
 * strings in a Pulumi program and in its (secret) state. Vendor channels take an `api_url` that
 * replaces the vendor's base URL (tests point it at a local receiver); the outbound policy still
 * applies to it.
 */

export const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(MAX_URL_LENGTH, URL_TOO_LONG)
  // The protocol rule, for the document (the URL parser lower-cases the scheme it checks).
  .meta({ pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+" });

/** The vendor base URL override: http(s), no query (the server appends the vendor's path). */
const apiUrl = httpUrl
  .refine((u) => !u.includes("?") && !u.includes("#"), "must not have a query or fragment")
  .optional();

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

/** PagerDuty event severities (Events API v2 `payload.severity`). */
export const PAGERDUTY_SEVERITIES = ["critical", "error", "warning", "info"] as const;

/** Config of a `pagerduty` channel: an Events API v2 integration. */
export const PagerDutyConfigSchema = z.strictObject({
  /** The integration's 32-character routing key (secret). */
  routing_key: z.string("is required").regex(/^[A-Za-z0-9]{32}$/, "must be the integration's 32-character routing key"),
  /** `payload.severity` of triggers; default `critical`. */
  severity: z.enum(PAGERDUTY_SEVERITIES, { error: `must be one of ${PAGERDUTY_SEVERITIES.join(", ")}` }).optional(),
  /** Replaces `https://events.pagerduty.com`. */
  api_url: apiUrl,
});

/** Opsgenie regions: each has its own API host. */
export const OPSGENIE_REGIONS = ["us", "eu"] as const;
/** Opsgenie alert priorities. */
export const OPSGENIE_PRIORITIES = ["P1", "P2", "P3", "P4", "P5"] as const;

/** Config of an `opsgenie` channel: the Alert API with an API integration's key. */
export const OpsgenieConfigSchema = z.strictObject({
  /** The API integration's key, sent as `Authorization: GenieKey <key>` (secret). */
  api_key: z.string("is required").regex(/^[A-Za-z0-9-]{8,128}$/, "must be the API integration's key"),
  /** `us` (api.opsgenie.com, default) or `eu` (api.eu.opsgenie.com). */
  region: z.enum(OPSGENIE_REGIONS, { error: "must be us or eu" }).optional(),
  /** Priority of created alerts; default P1. */
  priority: z.enum(OPSGENIE_PRIORITIES, { error: "must be one of P1, P2, P3, P4, P5" }).optional(),
  /** Replaces the region's API host. */
  api_url: apiUrl,
});

/** Config of a `teams` channel: a Microsoft Teams workflow ("Post to a channel when a webhook request is received"). */
export const TeamsConfigSchema = z.strictObject({ webhook_url: httpUrl });

/** Config of a `discord` channel: a channel webhook URL (`https://discord.com/api/webhooks/<id>/<token>`). */
export const DiscordConfigSchema = z.strictObject({ webhook_url: httpUrl });

/** Config of a `telegram` channel: a bot and the chat it writes to. */
export const TelegramConfigSchema = z.strictObject({
  /** The token BotFather gave, `<bot id>:<secret>` (secret). */
  bot_token: z
    .string("is required")
    .regex(/^\d{1,20}:[A-Za-z0-9_-]{30,100}$/, "must be a bot token, <bot id>:<secret>"),
  /** A numeric chat id (groups are negative) or `@channelusername`. */
  chat_id: z
    .string("is required")
    .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/, "must be a numeric chat id or @channelusername"),
  /** Replaces `https://api.telegram.org`. */
  api_url: apiUrl,
});

/** Config keys shown as they are on reads; every other key is a secret or a token-bearing URL. */
export const PLAIN_CONFIG_KEYS: ReadonlySet<string> = new Set([
  "address",
  "severity",
  "region",
  "priority",
  "chat_id",
  "api_url",
]);
/** Config keys holding URLs whose path or query carries a token: reads show their origin only. */
export const URL_CONFIG_KEYS: ReadonlySet<string> = new Set(["url", "webhook_url"]);
/** Config keys holding URLs the server connects to (checked by the outbound policy). */
export const TARGET_CONFIG_KEYS = ["url", "webhook_url", "api_url"] as const;
