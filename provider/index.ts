import "./node-version";
export type {
  Channel as ChannelRecord,
  Heartbeat,
  Monitor as MonitorRecord,
  Stats,
  StatusDocument,
  MonitorTestResult,
} from "../api";
export {
  type ChannelArgs,
  Channel,
  type ChannelOutputs,
  type EmailConfig,
  type SlackConfig,
  type WebhookConfig,
} from "./resources/channel";
export { type ClientOptions, clientFor, UptimeClient } from "./client/client";
export { dryRunMonitor } from "./client/dry-run";
export { type Connection, resolveConnection } from "./client/connection";
export { hasCode, UptimeApiError, UptimeConfigError } from "./client/errors";
export {
  type FunctionOptions,
  getMonitorHeartbeats,
  getMonitorStats,
  getStatusDocument,
  testChannel,
} from "./resources/functions";
export {
  type ByIdOrName,
  type ByIdOrSlug,
  type ChannelLookup,
  getChannel,
  getChannelOutput,
  getMaintenanceWindow,
  getMaintenanceWindowOutput,
  getMonitor,
  getMonitorOutput,
  getStatusPage,
  getStatusPageOutput,
  type InputArgs,
  type LookupResult,
  type MaintenanceWindowLookup,
  type MonitorLookup,
  type StatusPageLookup,
} from "./resources/lookups";
export { LOOKUP_KEYS, UptimeLookupError } from "./runtime/lookup";
export {
  MaintenanceWindow,
  type MaintenanceWindowArgs,
  type MaintenanceWindowOutputs,
} from "./resources/maintenance-window";
export { Monitor, type MonitorArgs, type MonitorOutputs } from "./resources/monitor";
export {
  GROUP_SETTINGS,
  type GroupMaintenanceArgs,
  type GroupMakers,
  groupChildren,
  type GroupMonitorArgs,
  MonitorGroup,
  type MonitorGroupArgs,
  type MonitorGroupSettings,
  withGroupSettings,
} from "./resources/monitor-group";
export type { ConnectionArgs } from "./resources/options";
export { StatusPage, type StatusPageArgs, type StatusPageOutputs } from "./resources/status-page";
