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

/** Names joined in words: "a", "a and b", "a, b and c". */
const and = (names: readonly string[]): string =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

/**
 * The `url` each type takes, in words, from the descriptors' rows: "`http(s)://…` for http and
 * keyword; …; required but for heartbeat, multistep and browser, which have none" (the `url`
 * property's description).
 */
export function urlsInWords(): string {
  const byUrl = new Map<string, MonitorType[]>();
  const none: MonitorType[] = [];
  for (const type of MONITOR_TYPES) {
    const { url } = MONITOR_TYPE_DOCS[type];
    if (url.startsWith("none")) none.push(type);
    else byUrl.set(url, [...(byUrl.get(url) ?? []), type]);
  }
  const parts = [...byUrl].map(([url, types]) => `${url} for ${and(types)}`);
  return `${parts.join("; ")}${none.length > 0 ? `; required but for ${and(none)}, which have none` : ""}.`;
}
