import type { MONITOR_TYPES } from "../../../api";
import { browserType } from "./browser";
import { dnsType } from "./dns";
import { domainType } from "./domain";
import { grpcType } from "./grpc";
import { heartbeatType } from "./heartbeat";
import { httpType } from "./http";
import { keywordType } from "./keyword";
import type { MonitorType } from "./monitor-type";
import { multistepType } from "./multistep";
import { pingType } from "./ping";
import { smtpType } from "./smtp";
import { tcpType } from "./tcp";
import { udpType } from "./udp";
import { websocketType } from "./websocket";

/** Every monitor type's module, by name: the one place a new type is added. */
const REGISTRY = {
  http: httpType,
  keyword: keywordType,
  tcp: tcpType,
  heartbeat: heartbeatType,
  dns: dnsType,
  multistep: multistepType,
  grpc: grpcType,
  websocket: websocketType,
  udp: udpType,
  ping: pingType,
  smtp: smtpType,
  domain: domainType,
  browser: browserType,
} satisfies Record<(typeof MONITOR_TYPES)[number], MonitorType>;

/** The module of monitor type `name`; throws for a type no module implements. */
export function monitorType(name: string): MonitorType {
  const found = (REGISTRY as Record<string, MonitorType>)[name];
  if (!found) throw new Error(`no checker module for monitor type ${name}`);
  return found;
}
