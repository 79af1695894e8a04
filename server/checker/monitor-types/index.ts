// Written by scripts/monitor-types.mjs (`npm run build`) from the types of api/monitor-types/: do not edit.
import type { MonitorType as MonitorTypeName } from "../../../api";
import type { MonitorType } from "./monitor-type";
import { browserType } from "./browser";
import { dnsType } from "./dns";
import { domainType } from "./domain";
import { grpcType } from "./grpc";
import { heartbeatType } from "./heartbeat";
import { httpType } from "./http";
import { keywordType } from "./keyword";
import { multistepType } from "./multistep";
import { pingType } from "./ping";
import { smtpType } from "./smtp";
import { tcpType } from "./tcp";
import { udpType } from "./udp";
import { websocketType } from "./websocket";

/** Every monitor type's checker module, by the type's name: one file of this folder each. */
export const CHECKER_MODULES = {
  browser: browserType,
  dns: dnsType,
  domain: domainType,
  grpc: grpcType,
  heartbeat: heartbeatType,
  http: httpType,
  keyword: keywordType,
  multistep: multistepType,
  ping: pingType,
  smtp: smtpType,
  tcp: tcpType,
  udp: udpType,
  websocket: websocketType,
} as const satisfies Record<MonitorTypeName, MonitorType>;
