import type { MonitorType } from "../monitor";
import { MONITOR_TYPE_REGISTRY } from "./registry";

type Registry = typeof MONITOR_TYPE_REGISTRY;

/**
 * The `Monitor` properties of some types only: every property a type's descriptor lists as its own
 * (`doc.fields`). Each other property (`intervalSec`, `channelIds`, `retry`, `status`, …) is every type's.
 */
export type TypeSpecificProperty = Registry[MonitorType]["doc"]["fields"][number];

/** The properties of each type's own, by type. */
const OWN: Readonly<Partial<Record<MonitorType, ReadonlySet<string>>>> = Object.fromEntries(
  Object.entries(MONITOR_TYPE_REGISTRY).map(([type, d]) => [type, new Set<string>(d.doc.fields)]),
) as Partial<Record<MonitorType, ReadonlySet<string>>>;

/** Every `TypeSpecificProperty`. */
export const TYPE_SPECIFIC_PROPERTIES: readonly TypeSpecificProperty[] = [
  ...new Set(Object.values(MONITOR_TYPE_REGISTRY).flatMap((d) => d.doc.fields as readonly TypeSpecificProperty[])),
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
