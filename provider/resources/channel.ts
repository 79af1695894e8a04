import type * as pulumi from "@pulumi/pulumi";
import { CHANNEL_FIELDS } from "../../api";
import type { ArgsOf, OutputsOf } from "./types";
import { tableResource } from "./table-resource";

/** Config of a webhook channel. */
export interface WebhookConfig {
  /** Where events are POSTed as JSON. */
  url: pulumi.Input<string>;
  /** HMAC-SHA256 key (>= 16 characters): events then carry `X-Signature: sha256=<hex>`. */
  secret?: pulumi.Input<string>;
}
/** Config of a Slack channel. */
export interface SlackConfig {
  /** The incoming-webhook URL Slack gave you. */
  webhookUrl: pulumi.Input<string>;
}
/** Config of an email channel. */
export interface EmailConfig {
  /** Recipient address. */
  address: pulumi.Input<string>;
}

/** Config of a PagerDuty channel (Events API v2): triggers on down, resolves on recovery. */
export interface PagerDutyConfig {
  /** The integration's 32-character routing key. */
  routingKey: pulumi.Input<string>;
  /** Severity of triggers: `critical` (default), `error`, `warning` or `info`. */
  severity?: pulumi.Input<"critical" | "error" | "warning" | "info">;
  /** Replaces `https://events.pagerduty.com` (a proxy, a test receiver). */
  apiUrl?: pulumi.Input<string>;
}
/** Config of an Opsgenie channel (Alert API): creates an alert per incident, closes it on recovery. */
export interface OpsgenieConfig {
  /** The API integration's key (sent as `GenieKey`). */
  apiKey: pulumi.Input<string>;
  /** `us` (default) or `eu`: which Opsgenie API host. */
  region?: pulumi.Input<"us" | "eu">;
  /** Priority of alerts: `P1` (default) to `P5`. */
  priority?: pulumi.Input<"P1" | "P2" | "P3" | "P4" | "P5">;
  /** Replaces the region's API host. */
  apiUrl?: pulumi.Input<string>;
}
/** Config of a Microsoft Teams channel: a workflow's webhook URL; messages are Adaptive Cards. */
export interface TeamsConfig {
  /** The URL of the workflow "When a Teams webhook request is received". */
  webhookUrl: pulumi.Input<string>;
}
/** Config of a Discord channel: a channel webhook; messages carry an embed. */
export interface DiscordConfig {
  /** `https://discord.com/api/webhooks/<id>/<token>`. */
  webhookUrl: pulumi.Input<string>;
}
/** Config of a Telegram channel: a bot writes to a chat (`sendMessage`). */
export interface TelegramConfig {
  /** The token BotFather gave, `<bot id>:<secret>`. */
  botToken: pulumi.Input<string>;
  /** A numeric chat id (groups are negative) or `@channelusername`. */
  chatId: pulumi.Input<string>;
  /** Replaces `https://api.telegram.org`. */
  apiUrl?: pulumi.Input<string>;
}

/** Inputs of a Channel. `config` depends on `type`. The whole config is stored as a secret. */
export type ChannelArgs = Omit<ArgsOf<typeof CHANNEL_FIELDS>, "type" | "config"> &
  (
    | { type: pulumi.Input<"webhook">; config: pulumi.Input<WebhookConfig> }
    | { type: pulumi.Input<"slack">; config: pulumi.Input<SlackConfig> }
    | { type: pulumi.Input<"email">; config: pulumi.Input<EmailConfig> }
    | { type: pulumi.Input<"pagerduty">; config: pulumi.Input<PagerDutyConfig> }
    | { type: pulumi.Input<"opsgenie">; config: pulumi.Input<OpsgenieConfig> }
    | { type: pulumi.Input<"teams">; config: pulumi.Input<TeamsConfig> }
    | { type: pulumi.Input<"discord">; config: pulumi.Input<DiscordConfig> }
    | { type: pulumi.Input<"telegram">; config: pulumi.Input<TelegramConfig> }
  );

/** The outputs of a Channel. */
export type ChannelOutputs = OutputsOf<typeof CHANNEL_FIELDS>;

// The outputs are declared by the interface merged into the class, derived from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Channel extends ChannelOutputs {}

/** A notification channel: where a monitor's `monitor.down` and `monitor.up` events go. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Channel extends tableResource<ChannelArgs>("Channel", CHANNEL_FIELDS, { defaultName: true }) {}
