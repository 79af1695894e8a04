import type { MonitorTypeDoc } from "./monitor-type";
import { MONITOR_TYPES, type MonitorType, monitorTypeDescriptor } from "./monitor-type-registry";

export type { MonitorTypeDoc } from "./monitor-type";

/**
 * Every monitor type's row of the README's "Monitor types" table (`npm run readme`), in the
 * README's order: each from its descriptor (api/monitor-types/<type>.ts).
 */
export const MONITOR_TYPE_DOCS = Object.fromEntries(
  MONITOR_TYPES.map((type) => [type, monitorTypeDescriptor(type).doc]),
) as Readonly<Record<MonitorType, MonitorTypeDoc>>;
