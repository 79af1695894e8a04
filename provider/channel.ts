import * as pulumi from "@pulumi/pulumi";
import type { ChannelType } from "../api";
import { type ConnectionArgs, secretInputs, withSecretOutputs } from "./resource-options";
import { serializedProvider } from "./serialized";

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

/** Inputs of a Channel. `config` depends on `type`. The whole config is stored as a secret. */
export type ChannelArgs = {
  /** Display name, 1..120 characters. Defaults to the resource's name. */
  name?: pulumi.Input<string>;
  /** Id of an existing channel (`chn_…`) to take over instead of creating one. */
  adopt?: pulumi.Input<string>;
  /** Another service or account for this resource. */
  connection?: pulumi.Input<ConnectionArgs>;
} & (
  | { type: pulumi.Input<"webhook">; config: pulumi.Input<WebhookConfig> }
  | { type: pulumi.Input<"slack">; config: pulumi.Input<SlackConfig> }
  | { type: pulumi.Input<"email">; config: pulumi.Input<EmailConfig> }
);

/** A notification channel: where a monitor's `monitor.down` and `monitor.up` events go. */
export class Channel extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  /** Changing it replaces the channel. */
  declare readonly type: pulumi.Output<ChannelType>;
  /** The declared config (secret). */
  declare readonly config: pulumi.Output<Record<string, string>>;
  /** The service's fingerprint of the config it holds: drift shows without revealing secrets. */
  declare readonly configFingerprint: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  declare readonly endpoint: pulumi.Output<string>;

  constructor(name: string, args: ChannelArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...secretInputs({ ...args, name: args.name ?? name }, ["config", "connection"]),
      configFingerprint: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      endpoint: undefined,
    };
    super(serializedProvider("Channel"), name, props, withSecretOutputs(opts, ["config", "connection"]), "uptime", "Channel");
  }
}
