import { z } from "zod";
import { empty, type MonitorField, type MonitorTypeDescriptor, nothing } from "./monitor-type";
import { MONITOR_TYPE_DESCRIPTORS } from "./monitor-types";

/** Kinds of monitor: the name of each descriptor in api/monitor-types/. `type` is fixed at creation. */
export type MonitorType = keyof typeof MONITOR_TYPE_DESCRIPTORS;

const DESCRIPTORS: Readonly<Record<MonitorType, MonitorTypeDescriptor>> = MONITOR_TYPE_DESCRIPTORS;

/** Every monitor type, in the descriptors' `order` (the README's). */
export const MONITOR_TYPES = (Object.keys(DESCRIPTORS) as MonitorType[]).sort(
  (a, b) => DESCRIPTORS[a].order - DESCRIPTORS[b].order,
) as readonly MonitorType[] as readonly [MonitorType, ...MonitorType[]];

export const MonitorTypeSchema = z.enum(MONITOR_TYPES);

/** The descriptor of `type`. */
export const monitorTypeDescriptor = (type: MonitorType): MonitorTypeDescriptor => DESCRIPTORS[type];

/** The types that take `field` as one of their own (the others take it only as `null` or `[]`), in `MONITOR_TYPES`' order. */
export function typesTaking(field: MonitorField): MonitorType[] {
  return MONITOR_TYPES.filter((type) => {
    const schema = DESCRIPTORS[type].fields?.()[field];
    return schema !== undefined && schema !== nothing && schema !== empty;
  });
}
