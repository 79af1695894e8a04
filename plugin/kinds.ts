/**
 * The kinds the native plugin serves: each runtime kind's own field table (the one its dynamic
 * resource and its runtime read) and the resource's description.
 */
import { KINDS, type KindName } from "../provider/kinds/registry";
import type { SchemaKinds } from "./schema";

const DESCRIPTIONS: Record<KindName, string> = {
  Monitor: "An uptime monitor: the service probes `url` every `intervalSec` seconds.",
  Channel: "A notification channel: where a monitor's `monitor.down` and `monitor.up` events go.",
  StatusPage: "A public status page listing monitors by name and health.",
  MaintenanceWindow: "A maintenance window: checks of its monitors during it neither alert nor count against uptime.",
};

/** Every kind of the runtime, with the table it reads. */
export const PLUGIN_KINDS: SchemaKinds = Object.fromEntries(
  (Object.keys(KINDS) as KindName[]).map((name) => [name, { description: DESCRIPTIONS[name], table: KINDS[name].fields.table }]),
);
