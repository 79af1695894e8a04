import { type Channel, CHANNEL_FIELDS, configFingerprint, CreateChannelSchema, issuesToDetails } from "../../api";
import { Fields, resourceOutputs } from "./fields";
import { type Failure, type Kind, mapKeys, type Props, toCamel, toSnake } from "./kind";

const fields = new Fields(CHANNEL_FIELDS);

/** The channel config as the API wants it: snake_case keys (`webhookUrl` → `webhook_url`). */
const apiConfig = (config: unknown): Props => mapKeys((config ?? {}) as Props, toSnake);

/** The declared inputs as an API body, the config's keys translated too. */
const apiBody = (inputs: Props): Props => ({ ...fields.toApi(inputs), config: apiConfig(inputs.config) });

/**
 * Channels. Reads mask the config, so the config is compared through the server's
 * `config_fingerprint`, recomputed from the declared config.
 */
export const channelKind: Kind<Channel> = {
  label: "channel",
  path: "/api/v1/channels",
  byIdIsExtension: true,
  fields,
  replaceOnChange: fields.replaceOnChange(),

  validate(inputs, complete): Failure[] {
    if (!complete) return [];
    const parsed = CreateChannelSchema.safeParse(apiBody(inputs));
    if (parsed.success) return [];
    return fields.failures(issuesToDetails(parsed.error.issues)).map((f) => {
      if (!f.property.startsWith("config.")) return f;
      const property = `config.${toCamel(f.property.slice(7))}`;
      return { property, reason: property + f.reason.slice(f.property.length) };
    });
  },

  desired: (inputs, id) => ({
    name: inputs.name,
    type: inputs.type,
    config_fingerprint: id ? configFingerprint(id, apiConfig(inputs.config)) : undefined,
  }),

  actual: (outputs) => ({ name: outputs.name, type: outputs.type, config_fingerprint: outputs.configFingerprint }),

  // The fingerprint stands for the config it was computed from.
  propertyOf: (field) => (field === "config_fingerprint" ? "config" : fields.propertyOf(field)),

  createBody: apiBody,

  patchBody: (inputs, changed) => fields.patch(apiBody(inputs), changed),

  outputs(api, inputs, connection) {
    const declared = apiConfig(inputs.config);
    // Keep the declared config while the server's fingerprint says it is what the server holds;
    // otherwise show the masked live config, which differs from any declaration: a visible drift.
    const config = configFingerprint(api.id, declared) === api.config_fingerprint ? inputs.config : mapKeys(api.config, toCamel);
    return { ...fields.fromApi(api), config, ...resourceOutputs(inputs, connection) };
  },

  // The config is secret: the table keeps it out of refreshed inputs, which are stored unencrypted.
  refreshedInputs: (api) => fields.fromApi(api, true),
};
