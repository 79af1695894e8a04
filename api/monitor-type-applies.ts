import { MONITOR_TYPES, type MonitorType, monitorTypeDescriptor } from "./monitor-type-registry";
import type { MONITOR_TYPE_DESCRIPTORS } from "./monitor-types";

type Registry = typeof MONITOR_TYPE_DESCRIPTORS;

/**
 * The `Monitor` properties of some types only: every property a type's descriptor lists as its own
 * (`doc.fields`). Each other property (`intervalSec`, `channelIds`, `retry`, `status`, …) is every type's.
 */
export type TypeSpecificProperty = Registry[MonitorType]["doc"]["fields"][number];

/** The properties of each type's own, by type. */
const OWN: Readonly<Partial<Record<MonitorType, ReadonlySet<string>>>> = Object.fromEntries(
  MONITOR_TYPES.map((type) => [type, new Set<string>(monitorTypeDescriptor(type).doc.fields)]),
) as Partial<Record<MonitorType, ReadonlySet<string>>>;

/** Every `TypeSpecificProperty`. */
export const TYPE_SPECIFIC_PROPERTIES: readonly TypeSpecificProperty[] = [
  ...new Set(
    MONITOR_TYPES.flatMap((type) => monitorTypeDescriptor(type).doc.fields as readonly TypeSpecificProperty[]),
  ),
];
const SPECIFIC = new Set<string>(TYPE_SPECIFIC_PROPERTIES);

/**
 * Whether the `Monitor` property `property` is one of a `type` monitor: a property every type has,
 * or one its descriptor lists. An unknown type (state of a newer version) has every property.
 */
export function appliesTo(type: unknown, property: string): boolean {
  const own = OWN[type as MonitorType];
  return !own || !SPECIFIC.has(property) || own.has(property);
}
