import type * as pulumi from "@pulumi/pulumi";
import { CHANNEL_FIELDS } from "../../api";
import { outputPlaceholders, secretProperties } from "../kinds/fields";
import { secretInputs, withSecretOutputs } from "./options";
import type { ArgsOf, OutputsOf } from "./types";
import { identityInput } from "./identity-input";
import { DynamicResource } from "./dynamic-resource";

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
export type ChannelArgs = Omit<ArgsOf<typeof CHANNEL_FIELDS>, "type" | "config"> &
  (
    | { type: pulumi.Input<"webhook">; config: pulumi.Input<WebhookConfig> }
    | { type: pulumi.Input<"slack">; config: pulumi.Input<SlackConfig> }
    | { type: pulumi.Input<"email">; config: pulumi.Input<EmailConfig> }
  );

/** The outputs of a Channel. */
export type ChannelOutputs = OutputsOf<typeof CHANNEL_FIELDS>;

const SECRETS = secretProperties(CHANNEL_FIELDS);
/** Every declared output, registered for each resource (computed once per kind). */
const OUTPUTS = outputPlaceholders(CHANNEL_FIELDS);

// The outputs are declared by the interface merged into the class, derived from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Channel extends ChannelOutputs {}

/** A notification channel: where a monitor's `monitor.down` and `monitor.up` events go. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Channel extends DynamicResource {
  constructor(name: string, args: ChannelArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { ...OUTPUTS, ...secretInputs({ ...args, name: args.name ?? name }, SECRETS), ...identityInput("Channel", name, opts) };
    super("Channel", name, props, withSecretOutputs(opts, SECRETS));
  }
}
