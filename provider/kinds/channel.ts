import { type Channel, configFingerprint, CreateChannelSchema, issuesToDetails } from "../../api";
import { type Failure, type Kind, mapKeys, type Props, toCamel, toProperty, toSnake } from "./kind";

/** The channel config as the API wants it: snake_case keys (`webhookUrl` → `webhook_url`). */
const apiConfig = (config: unknown): Props => mapKeys((config ?? {}) as Props, toSnake);

/**
 * Channels. Reads mask the config, so the config is compared through the server's
 * `config_fingerprint`, recomputed from the declared config.
 */
export const channelKind: Kind<Channel> = {
  label: "channel",
  path: "/api/v1/channels",
  byIdIsExtension: true,
  replaceOnChange: ["type"],

  validate(inputs, complete): Failure[] {
    const body = { name: inputs.name, type: inputs.type, config: apiConfig(inputs.config) };
    if (!complete) return [];
    const parsed = CreateChannelSchema.safeParse(body);
    if (parsed.success) return [];
    return issuesToDetails(parsed.error.issues).map((d) => {
      const property = d.field.startsWith("config.") ? `config.${toCamel(d.field.slice(7))}` : toProperty(d.field);
      return { property, reason: `${property}: ${d.message}` };
    });
  },

  desired: (inputs, id) => ({
    name: inputs.name,
    type: inputs.type,
    configFingerprint: id ? configFingerprint(id, apiConfig(inputs.config)) : undefined,
  }),

  actual: (outputs) => ({ name: outputs.name, type: outputs.type, configFingerprint: outputs.configFingerprint }),

  propertyOf: (field) => (field === "configFingerprint" ? "config" : field),

  createBody: (inputs) => ({ name: inputs.name, type: inputs.type, config: apiConfig(inputs.config) }),

  patchBody(inputs, changed) {
    return {
      ...(changed.includes("name") ? { name: inputs.name } : {}),
      ...(changed.includes("config") ? { config: apiConfig(inputs.config) } : {}),
    };
  },

  outputs(api, inputs, connection) {
    const declared = apiConfig(inputs.config);
    // Keep the declared config while the server's fingerprint says it is what the server holds;
    // otherwise show the masked live config, which differs from any declaration: a visible drift.
    const config = configFingerprint(api.id, declared) === api.config_fingerprint ? inputs.config : mapKeys(api.config, toCamel);
    return {
      name: api.name,
      type: api.type,
      config,
      configFingerprint: api.config_fingerprint,
      createdAt: api.created_at,
      updatedAt: api.updated_at,
      endpoint: connection.baseUrl,
      ...(inputs.connection ? { connection: inputs.connection } : {}),
      ...(inputs.adopt ? { adopt: inputs.adopt } : {}),
    };
  },

  // The config is secret: refreshed inputs are stored without encryption, so it stays out.
  refreshedInputs: (api) => ({ name: api.name, type: api.type }),
};
