import { channelKind } from "./channel";
import { maintenanceWindowKind } from "./maintenance-window";
import { monitorKind } from "./monitor";
import { statusPageKind } from "./status-page";

/** Every resource kind, by the name of its resource class. */
export const KINDS = {
  Monitor: monitorKind,
  Channel: channelKind,
  StatusPage: statusPageKind,
  MaintenanceWindow: maintenanceWindowKind,
} as const;

/** The name of a resource kind: `Monitor`, `Channel`, `StatusPage`. */
export type KindName = keyof typeof KINDS;
