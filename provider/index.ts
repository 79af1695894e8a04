export type { Channel as ChannelRecord, Heartbeat, Monitor as MonitorRecord, Stats, StatusDocument } from "../api";
export { type ChannelArgs, Channel, type ChannelOutputs, type EmailConfig, type SlackConfig, type WebhookConfig } from "./channel";
export { type ClientOptions, clientFor, UptimeClient } from "./client";
export { type Connection, resolveConnection } from "./connection";
export { hasCode, UptimeApiError, UptimeConfigError } from "./errors";
export {
  type FunctionOptions,
  getMonitorHeartbeats,
  getMonitorStats,
  getStatusDocument,
  testChannel,
} from "./functions";
export { MaintenanceWindow, type MaintenanceWindowArgs, type MaintenanceWindowOutputs } from "./maintenance-window";
export { Monitor, type MonitorArgs, type MonitorOutputs } from "./monitor";
export type { ConnectionArgs } from "./resource-options";
export { StatusPage, type StatusPageArgs, type StatusPageOutputs } from "./status-page";
