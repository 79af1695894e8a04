/**
 * A channel's `config` as the plugin's SDKs type it: one object type per channel type, under the
 * type's name (`config: { webhook: { url } }`), so every SDK has a class per type with typed,
 * documented, secret-marked properties (a flat map of strings had none). The runtime and the API
 * take the flat config of the channel's type (`{ url }`): this module maps between the two.
 * The per-type types come from the API's zod schemas (api/channel-configs.ts).
 */
import { z } from "zod";
import { CHANNEL_CONFIG_SCHEMAS, CHANNEL_TYPES, type FieldType, PLAIN_CONFIG_KEYS } from "../api";
import { isUnknown, type Props, toCamel, UNKNOWN } from "../provider/kinds/values";
import { pascal } from "./schema-types";

/** What each config key is (API name); the rules come from the zod schema. */
export const CONFIG_KEY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  url: "The URL events are POSTed to as JSON; its path and query may carry a token.",
  secret: "Key of the HMAC-SHA256 signature sent in `X-Signature`.",
  webhook_url: "The incoming-webhook URL the vendor gave (it carries a token).",
  address: "The email address alerts go to.",
  routing_key: "The Events API v2 integration's routing key.",
  severity: "`payload.severity` of triggers; default `critical`.",
  api_key: "The API integration's key, sent as `Authorization: GenieKey <key>`.",
  region: "`us` (api.opsgenie.com, the default) or `eu` (api.eu.opsgenie.com).",
  priority: "Priority of created alerts; default `P1`.",
  bot_token: "The token BotFather gave, `<bot id>:<secret>`.",
  chat_id: "A numeric chat id (groups are negative) or `@channelusername`.",
  api_url: "Replaces the vendor's API base URL (e.g. a proxy); http(s), no query.",
};

interface JsonProperty {
  type?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

/** The rule of a config value in words, from its JSON Schema. */
function rule(p: JsonProperty): string {
  const parts: string[] = [];
  if (p.format === "uri") parts.push("be an http(s) URL");
  else if (p.format === "email") parts.push("be an email address");
  else if (p.pattern && !p.enum) parts.push(`match \`${p.pattern}\``);
  if (p.minLength !== undefined) parts.push(`have at least ${p.minLength} characters`);
  if (p.maxLength !== undefined) parts.push(`have at most ${p.maxLength} characters`);
  return parts.length ? ` Must ${parts.join(", ")}.` : "";
}

/** The object type of one channel type's config (`WebhookConfig`), keys camelCase. */
function configType(type: (typeof CHANNEL_TYPES)[number]): FieldType {
  const json = z.toJSONSchema(CHANNEL_CONFIG_SCHEMAS[type], { io: "input" }) as {
    properties: Record<string, JsonProperty>;
    required?: string[];
  };
  const properties = Object.fromEntries(
    Object.entries(json.properties).map(([key, p]) => [
      toCamel(key),
      {
        type: "string",
        ...(p.enum ? { enum: p.enum } : {}),
        ...(PLAIN_CONFIG_KEYS.has(key) ? {} : { secret: true }),
        description: `${CONFIG_KEY_DESCRIPTIONS[key] ?? ""}${rule(p)}`.trim(),
      } satisfies FieldType,
    ]),
  );
  return {
    type: "object",
    ref: `${pascal(type)}Config`,
    description: `Config of the \`${type}\` channel type.`,
    properties,
    requiredProperties: (json.required ?? []).map(toCamel),
  };
}

/** `Channel.config` in the schema: one optional block per channel type, the channel's own set. */
export const CHANNEL_CONFIG_TYPE: FieldType = {
  type: "object",
  ref: "ChannelConfig",
  description: "A channel's config: set the block named like the channel's `type`, and only that one.",
  properties: Object.fromEntries(CHANNEL_TYPES.map((t) => [t, configType(t)])),
  requiredProperties: [],
};

const TYPES: ReadonlySet<string> = new Set(CHANNEL_TYPES);

/** Whether a config is in the flat form (state written before the typed form, or the runtime's). */
const isFlat = (config: Props): boolean => !Object.keys(config).some((k) => TYPES.has(k));

/**
 * The runtime's form of a channel's inputs or outputs: `config` flat. The block taken is the
 * one named like `type` (or the only one, while `type` is not known yet); `problem` says what
 * is wrong with a config that has no such block.
 */
export function toRuntimeConfig(props: Props): { props: Props; problem?: { property: string; reason: string } } {
  const config = props.config;
  if (!config || typeof config !== "object" || Array.isArray(config) || isFlat(config as Props)) return { props };
  const blocks = config as Props;
  const type = props.type;
  const names = Object.keys(blocks);
  const chosen = typeof type === "string" && !isUnknown(type) ? type : names.length === 1 ? names[0] : undefined;
  const others = names.filter((n) => n !== chosen);
  if (chosen === undefined) return { props: { ...props, config: UNKNOWN } };
  if (others.length > 0) {
    const reason = `config.${others[0]}: a ${String(chosen)} channel takes only config.${String(chosen)}`;
    return { props: { ...props, config: blocks[chosen] ?? {} }, problem: { property: `config.${others[0]}`, reason } };
  }
  return { props: { ...props, config: blocks[chosen] ?? {} } };
}

/** The typed form of a channel's outputs: the runtime's flat `config` under the channel's type. */
export function fromRuntimeConfig(props: Props): Props {
  const config = props.config;
  if (!config || typeof config !== "object" || typeof props.type !== "string" || !isFlat(config as Props)) return props;
  return { ...props, config: { [props.type]: config } };
}

/**
 * A runtime failure's property path as the program wrote the config: `config.url` →
 * `config.webhook.url` when `written` (the plugin-form inputs) holds the typed form.
 */
export function typedConfigPath(path: string, written: Props): string {
  const config = written.config;
  const typed = config && typeof config === "object" && !Array.isArray(config) && !isFlat(config as Props);
  if (!typed || !path.startsWith("config.") || typeof written.type !== "string" || !TYPES.has(written.type))
    return path;
  return `config.${written.type}.${path.slice("config.".length)}`;
}
