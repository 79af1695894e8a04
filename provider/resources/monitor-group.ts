// Subpaths, not the SDK root: its index loads the Automation API, which programs do not need.
import { all, type Input, type Output, output } from "@pulumi/pulumi/output";
import { ComponentResource, type ComponentResourceOptions } from "@pulumi/pulumi/resource";
import { MaintenanceWindow, type MaintenanceWindowArgs } from "./maintenance-window";
import { Monitor, type MonitorArgs } from "./monitor";
import type { ConnectionArgs } from "./options";

/**
 * The settings a group shares with its monitors. A monitor's own value wins over the group's,
 * except `tags`: a monitor carries the group's tags and its own.
 */
export interface MonitorGroupSettings {
  /** Checker locations of every monitor (see `Monitor.locations`). */
  locations?: MonitorArgs["locations"];
  /** Channels every monitor alerts. */
  channelIds?: MonitorArgs["channelIds"];
  /** Seconds between checks of every monitor (see `Monitor.intervalSec`). */
  intervalSec?: MonitorArgs["intervalSec"];
  /** Failed checks in a row before a monitor is down (its retries), 1..10. */
  confirmations?: MonitorArgs["confirmations"];
  /** Tags every monitor carries, besides its own. */
  tags?: MonitorArgs["tags"];
  /** Another service or account than the stack's default, for every monitor and window. */
  connection?: Input<ConnectionArgs>;
}

/** The settings in the order they are merged; `tags` is the one that is merged as a union. */
export const GROUP_SETTINGS = [
  "locations",
  "channelIds",
  "intervalSec",
  "confirmations",
  "tags",
  "connection",
] as const;

/** A monitor of a group: a Monitor's inputs, each shared setting optional (the group's applies). */
export type GroupMonitorArgs = Omit<MonitorArgs, "intervalSec"> & { intervalSec?: MonitorArgs["intervalSec"] };

/** A maintenance window of a group: it covers every monitor of the group. */
export type GroupMaintenanceArgs = Omit<MaintenanceWindowArgs, "monitorIds" | "connection">;

/** The inputs of a MonitorGroup: the shared settings, its monitors, and its maintenance windows. */
export interface MonitorGroupArgs extends MonitorGroupSettings {
  /** The monitors, by key: each becomes the Monitor `<group>-<key>`, its settings defaulting to the group's. */
  monitors: Record<string, GroupMonitorArgs>;
  /** Maintenance windows, by key: each becomes the MaintenanceWindow `<group>-<key>` covering every monitor. */
  maintenanceWindows?: Record<string, GroupMaintenanceArgs>;
}

/** Tags of the group and of the monitor, the group's first, without duplicates. */
function unionOf(group: MonitorArgs["tags"], own: MonitorArgs["tags"]): MonitorArgs["tags"] {
  if (group === undefined || own === undefined) return own ?? group;
  const merge = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];
  if (Array.isArray(group) && Array.isArray(own) && [...group, ...own].every((t) => typeof t === "string")) {
    return merge(group as string[], own as string[]);
  }
  return all([output(group), output(own)]).apply(([a, b]) => merge(a as string[], b as string[]));
}

/** A monitor's inputs with the group's settings where the monitor has none of its own. */
export function withGroupSettings(group: MonitorGroupSettings, own: GroupMonitorArgs): MonitorArgs {
  const merged: Record<string, unknown> = { ...own };
  for (const setting of GROUP_SETTINGS) {
    merged[setting] = setting === "tags" ? unionOf(group.tags, own.tags) : (own[setting] ?? group[setting]);
    if (merged[setting] === undefined) delete merged[setting];
  }
  if (merged.intervalSec === undefined)
    throw new Error("intervalSec: is required, on the group or on each of its monitors");
  return merged as MonitorArgs;
}

/** How a group makes its children: the dynamic resources here, the plugin's own resources in the plugin. */
export interface GroupMakers<M extends { id: Output<string> }, W> {
  monitor(name: string, args: MonitorArgs, opts: { parent: ComponentResource }): M;
  window(name: string, args: MaintenanceWindowArgs, opts: { parent: ComponentResource }): W;
}

/** The children of group `name`: a monitor per key with the group's settings, and the windows covering them all. */
export function groupChildren<M extends { id: Output<string> }, W>(
  parent: ComponentResource,
  name: string,
  args: MonitorGroupArgs,
  make: GroupMakers<M, W>,
): {
  monitors: Record<string, M>;
  monitorIds: Output<string[]>;
  monitorIdsByName: Output<Record<string, string>>;
  windows: Record<string, W>;
} {
  const keys = Object.keys(args.monitors ?? {});
  if (keys.length === 0) throw new Error(`MonitorGroup ${name}: monitors: must have at least one monitor`);
  const monitors: Record<string, M> = {};
  for (const key of keys)
    monitors[key] = make.monitor(`${name}-${key}`, withGroupSettings(args, args.monitors[key] as GroupMonitorArgs), {
      parent,
    });
  const monitorIds = all(keys.map((k) => (monitors[k] as M).id));
  const monitorIdsByName = monitorIds.apply((ids) => Object.fromEntries(keys.map((k, i) => [k, ids[i] as string])));
  const windows: Record<string, W> = {};
  for (const [key, window] of Object.entries(args.maintenanceWindows ?? {})) {
    const covering = { ...window, monitorIds, ...(args.connection ? { connection: args.connection } : {}) };
    windows[key] = make.window(`${name}-${key}`, covering, { parent });
  }
  return { monitors, monitorIds, monitorIdsByName, windows };
}

/**
 * Monitors that share settings, like Checkly's check groups or Uptime Kuma's groups: the group
 * holds the locations, channels, interval, retries (`confirmations`), tags and maintenance
 * windows, and creates its monitors with them. Changing a group setting updates every monitor
 * that does not set it itself, in one `pulumi up`.
 */
export class MonitorGroup extends ComponentResource {
  /** The group's monitors, by key. */
  readonly monitors: Readonly<Record<string, Monitor>>;
  /** The group's maintenance windows, by key. */
  readonly maintenanceWindows: Readonly<Record<string, MaintenanceWindow>>;
  /** The ids of the group's monitors, in key order. */
  readonly monitorIds: Output<string[]>;
  /** The id of each of the group's monitors, by its key in `monitors` (`group.monitorIdsByName.apply((ids) => ids.api)`). */
  readonly monitorIdsByName: Output<Record<string, string>>;

  constructor(name: string, args: MonitorGroupArgs, opts?: ComponentResourceOptions) {
    super("uptime:index:MonitorGroup", name, {}, opts);
    const children = groupChildren(this, name, args, {
      monitor: (n, a, o) => new Monitor(n, a, o),
      window: (n, a, o) => new MaintenanceWindow(n, a, o),
    });
    this.monitors = Object.freeze(children.monitors);
    this.maintenanceWindows = Object.freeze(children.windows);
    this.monitorIds = children.monitorIds;
    this.monitorIdsByName = children.monitorIdsByName;
    this.registerOutputs({ monitorIds: this.monitorIds, monitorIdsByName: this.monitorIdsByName });
  }
}
