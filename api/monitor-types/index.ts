// Written by scripts/monitor-types.mjs (`npm run build`) from the files of this folder: do not edit.
import type { MonitorTypeDescriptor } from "../monitor-type";
import { browser } from "./browser";
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

/** Every monitor type's descriptor, by its name: one file of this folder each. */
export const MONITOR_TYPE_DESCRIPTORS = {
  browser,
  dns,
  domain,
  grpc,
  heartbeat,
  http,
  keyword,
  multistep,
  ping,
  smtp,
  tcp,
  udp,
  websocket,
} as const satisfies Record<string, MonitorTypeDescriptor>;
