import type { MonitorType } from "./monitor";
import type { MonitorTypeDoc } from "./monitor-types/descriptor";
import { MONITOR_TYPE_REGISTRY } from "./monitor-types/registry";

export type { MonitorTypeDoc } from "./monitor-types/descriptor";

/**
 * Every monitor type's row of the README's "Monitor types" table (`npm run readme`), in the
 * README's order: each from its descriptor (api/monitor-types/<type>.ts).
 */
export const MONITOR_TYPE_DOCS = Object.fromEntries(
  Object.entries(MONITOR_TYPE_REGISTRY).map(([type, descriptor]) => [type, descriptor.doc]),
) as Record<string, MonitorTypeDoc> as Readonly<Record<MonitorType, MonitorTypeDoc>>;
