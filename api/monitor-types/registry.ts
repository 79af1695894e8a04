import type { MonitorType } from "../monitor";
import { browser } from "./browser";
import { empty, type MonitorField, type MonitorTypeDescriptor, nothing } from "./descriptor";
import { dns } from "./dns";
import { domain } from "./domain";
import { grpc } from "./grpc";
import { heartbeat } from "./heartbeat";
import { http } from "./http";
import { keyword } from "./keyword";
import { multistep } from "./multistep";
import { ping } from "./ping";
import { smtp } from "./smtp";
import { tcp } from "./tcp";
import { udp } from "./udp";
import { websocket } from "./websocket";

/**
 * Every monitor type's descriptor, in the README's order. `satisfies` makes a type without one a
 * compile error, as the checker's registry does on the server (server/checker/monitor-types).
 */
export const MONITOR_TYPE_REGISTRY = {
  http,
  keyword,
  tcp,
  heartbeat,
  dns,
  multistep,
  grpc,
  websocket,
  udp,
  ping,
  smtp,
  domain,
  browser,
} as const satisfies Record<MonitorType, MonitorTypeDescriptor>;

/** The descriptor of `type`. */
export const monitorTypeDescriptor = (type: MonitorType): MonitorTypeDescriptor => MONITOR_TYPE_REGISTRY[type];

/** The types that take `field` as one of their own (the others take it only as `null` or `[]`), in the registry's order. */
export function typesTaking(field: MonitorField): MonitorType[] {
  return (Object.keys(MONITOR_TYPE_REGISTRY) as MonitorType[]).filter((type) => {
    const schema = (MONITOR_TYPE_REGISTRY[type] as MonitorTypeDescriptor).fields?.()[field];
    return schema !== undefined && schema !== nothing && schema !== empty;
  });
}
