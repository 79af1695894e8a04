/**
 * The kinds the native plugin serves: each runtime kind's own field table (the one its dynamic
 * resource and its runtime read), the resource's description, and the properties the plugin
 * types otherwise than the table, with the mapping between the two forms.
 */
import { KINDS, type KindName } from "../provider/kinds/registry";
import type { Props } from "../provider/kinds/values";
import { CHANNEL_CONFIG_TYPE, fromRuntimeConfig, toRuntimeConfig, typedConfigPath } from "./channel-config";
import type { SchemaKinds } from "./schema-rows";

const DESCRIPTIONS: Record<KindName, string> = {
  Monitor: "An uptime monitor: the service probes `url` every `intervalSec` seconds.",
  Channel: "A notification channel: where a monitor's `monitor.down` and `monitor.up` events go.",
  StatusPage:
    "A public status page: sections of components (monitors with a state rule, or manual), incident rules, a custom domain, access (password, address ranges), locale and theme.",
  MaintenanceWindow: "A maintenance window: checks of its monitors during it neither alert nor count against uptime.",
};

/** A kind whose plugin form differs from the runtime's: how values and failure paths map. */
export interface PluginShape {
  /** Inputs or outputs in the runtime's form; `problem`: the typed form broke a rule of its own. */
  toRuntime(props: Props): { props: Props; problem?: { property: string; reason: string } };
  /** Outputs (or refreshed inputs) in the plugin's form. */
  fromRuntime(props: Props): Props;
  /** A failure's property path as the program wrote it (`written`: the inputs in the plugin's form). */
  failurePath(path: string, written: Props): string;
}

/** The kinds with a plugin form of their own: a channel's per-type config. */
export const SHAPES: Partial<Record<string, PluginShape>> = {
  Channel: { toRuntime: toRuntimeConfig, fromRuntime: fromRuntimeConfig, failurePath: typedConfigPath },
};

const TYPES: Partial<Record<KindName, SchemaKinds[string]["types"]>> = { Channel: { config: CHANNEL_CONFIG_TYPE } };

/** Every kind of the runtime, with the table it reads. */
export const PLUGIN_KINDS: SchemaKinds = Object.fromEntries(
  (Object.keys(KINDS) as KindName[]).map((name) => [
    name,
    {
      description: DESCRIPTIONS[name],
      table: KINDS[name].fields.table,
      ...(TYPES[name] ? { types: TYPES[name] } : {}),
      ...(KINDS[name].stateLeavesOut ? { leavesOut: KINDS[name].stateLeavesOut } : {}),
    },
  ]),
);
