import { createHash } from "node:crypto";
import type { z } from "zod";
import {
  canonicalConfigJson,
  type Channel,
  CHANNEL_CONFIG_SCHEMAS,
  CHANNEL_FIELDS,
  type ChannelType,
  channelEventsConflict,
  CreateChannelSchema,
  issuesToDetails,
  resolveChannelEvents,
  UpdateChannelSchema,
} from "../../api";
import type { Connection } from "../client/connection";
import { Fields, resourceOutputs } from "./fields";
import { type Kind, type Previous } from "./kind";
import { type Failure, mapKeys, type Props, toCamel, toSnake } from "./values";

const fields = new Fields(CHANNEL_FIELDS);

/** The channel config as the API wants it: snake_case keys (`webhookUrl` → `webhook_url`). */
const apiConfig = (config: unknown): Props => mapKeys((config ?? {}) as Props, toSnake);

/** The declared inputs as an API body, the config's keys translated too. */
const apiBody = (inputs: Props): Props => ({ ...fields.toApi(inputs), config: apiConfig(inputs.config) });

/**
 * The rules the known inputs break while others are not known yet: the name, the type, and the
 * config's known keys against its type's schema (keys not known yet are not required).
 */
function knownIssues(inputs: Props): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  if (inputs.name !== undefined)
    issues.push(...(UpdateChannelSchema.pick({ name: true }).safeParse({ name: inputs.name }).error?.issues ?? []));
  if (inputs.type === undefined) return issues;
  const schema = CHANNEL_CONFIG_SCHEMAS[inputs.type as ChannelType] as z.ZodObject | undefined;
  if (!schema) return [...issues, ...(CreateChannelSchema.safeParse({ type: inputs.type }).error?.issues ?? [])];
  if (inputs.config === undefined) return issues;
  const config = schema
    .partial()
    .safeParse(typeof inputs.config === "object" ? apiConfig(inputs.config) : inputs.config);
  return [...issues, ...(config.error?.issues ?? []).map((i) => ({ ...i, path: ["config", ...i.path] }))];
}

/** The unkeyed fingerprint servers before the keyed one returned (SHA-256 of id and config). */
const legacyFingerprint = (id: string, config: Props): string =>
  createHash("sha256")
    .update(`${id}\n${canonicalConfigJson(config)}`)
    .digest("hex");

/**
 * The fingerprint the provider recorded after its last write of the config. State written before
 * `writtenFingerprint` existed records none: the previous rule decides (the live fingerprint is the
 * unkeyed hash of the config), which a keyed server never meets, so such a channel shows its
 * config as changed once and the next `up` rewrites it and records the fingerprint.
 */
function recordedFingerprint(id: string, previous: Previous, inputs: Props): string {
  const written = previous.props.writtenFingerprint;
  if (typeof written === "string") return written;
  return legacyFingerprint(id, apiConfig(previous.props.config ?? inputs.config));
}

/**
 * The outputs' config and fingerprint record. After a write of the config, the config the program
 * declared and the fingerprint the server returned for it. Otherwise the record carries over, and
 * the config is kept while the live fingerprint is the recorded one; when it is not, the config
 * was changed behind Pulumi's back: the masked live config, which differs from any declaration,
 * shows the drift.
 */
function configOutputs(api: Channel, inputs: Props, previous?: Previous): Props {
  if (!previous || previous.rewrote.includes("config")) {
    return { config: inputs.config, writtenFingerprint: api.config_fingerprint };
  }
  const written = recordedFingerprint(api.id, previous, inputs);
  const same = written === api.config_fingerprint;
  const config = same ? (previous.props.config ?? inputs.config) : mapKeys(api.config, toCamel);
  // A drifted record is kept (the next write replaces it); an unverified legacy one is not made up.
  const keep = same || typeof previous.props.writtenFingerprint === "string";
  return { config, ...(keep ? { writtenFingerprint: written } : {}) };
}

/**
 * Channels. Reads mask the config and its fingerprint is keyed by the server, so the provider
 * records the fingerprint a write returned (`writtenFingerprint`) and the config it wrote (the
 * secret `config` output): the config changed when the program declares another one, or when the
 * live fingerprint is no longer the recorded one.
 */
export const channelKind: Kind<Channel> = {
  label: "channel",
  path: "/api/v1/channels",
  byIdIsExtension: true,
  fields,
  replaceOnChange: fields.replaceOnChange(),

  validate(inputs, complete): Failure[] {
    const issues = complete
      ? (CreateChannelSchema.safeParse(apiBody(inputs)).error?.issues ?? [])
      : knownIssues(inputs);
    // Judged on complete inputs only: an events list with an element not known yet may still agree.
    const conflict = complete
      ? channelEventsConflict(inputs.events as string[] | undefined, inputs.notifyDegraded as boolean | undefined)
      : undefined;
    const details = [
      ...issuesToDetails(issues),
      ...(conflict ? [{ field: "notify_degraded", message: conflict }] : []),
    ];
    return fields.failures(details).map((f) => {
      if (!f.property.startsWith("config.")) return f;
      const property = `config.${toCamel(f.property.slice(7))}`;
      return { property, reason: property + f.reason.slice(f.property.length) };
    });
  },

  // `events` left out means the server's default, which `notifyDegraded` shapes: both compare resolved.
  desired: (inputs) => {
    const events = resolveChannelEvents(
      inputs.events as string[] | undefined,
      inputs.notifyDegraded as boolean | undefined,
    );
    return {
      name: inputs.name,
      type: inputs.type,
      config: apiConfig(inputs.config),
      notify_degraded: events.includes("degraded"),
      events,
    };
  },

  // A live fingerprint other than the recorded one is a change, whatever config the state holds.
  actual: (outputs) => ({
    name: outputs.name,
    type: outputs.type,
    notify_degraded: outputs.notifyDegraded === true,
    events: resolveChannelEvents(
      (outputs.events as string[] | undefined) ?? null,
      outputs.notifyDegraded as boolean | undefined,
    ),
    config:
      typeof outputs.writtenFingerprint === "string" && outputs.writtenFingerprint !== outputs.configFingerprint
        ? { changed_outside_pulumi: outputs.configFingerprint }
        : apiConfig(outputs.config),
  }),

  propertyOf: (field) => fields.propertyOf(field),

  createBody: apiBody,

  // Events removed from a program return to the default: the body names them resolved, never leaves them out.
  patchBody: (inputs, changed) => {
    const body = fields.patch(apiBody(inputs), changed);
    if (!changed.includes("events") && !changed.includes("notifyDegraded")) return body;
    const events = resolveChannelEvents(
      inputs.events as string[] | undefined,
      inputs.notifyDegraded as boolean | undefined,
    );
    return { ...body, events, notify_degraded: events.includes("degraded") };
  },

  outputs: (api: Channel, inputs: Props, connection: Connection, previous?: Previous) => ({
    ...fields.fromApi(api),
    ...configOutputs(api, inputs, previous),
    ...resourceOutputs(inputs, connection),
  }),

  // The config is secret: the table keeps it out of refreshed inputs, which are stored unencrypted.
  refreshedInputs: (api) => fields.fromApi(api, true),
};
