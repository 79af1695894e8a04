/**
 * `MonitorGroup` as a multi-language component: its schema (the group's settings, its monitors as
 * a map of `GroupMonitor`, its windows as a map of `GroupMaintenanceWindow`) and its `construct`,
 * which builds the same children as the TypeScript class (provider/resources/monitor-group.ts)
 * from the plugin's own `uptime:index:Monitor` and `uptime:index:MaintenanceWindow` resources.
 */
import type { Inputs, Output } from "@pulumi/pulumi";
import type { ConstructResult } from "@pulumi/pulumi/provider";
import { ComponentResource, type ComponentResourceOptions, CustomResource } from "@pulumi/pulumi/resource";
import { type Field, RESOURCE_FIELDS } from "../api";
import { GROUP_SETTINGS, groupChildren, type MonitorGroupArgs } from "../provider/resources/monitor-group";
import { property, type SchemaKinds, typedRows } from "./schema-rows";
import { PACKAGE, type TypeRegistry, typeToken } from "./schema-types";

type Json = Record<string, unknown>;

/** The component's type token. */
export const MONITOR_GROUP = `${PACKAGE}:index:MonitorGroup`;

const rowsOf = (kind: SchemaKinds[string]) => new Map(typedRows(kind).inputs);

/** An object type of the schema from rows (the owner names their enums, shared with the resource's). */
function objectType(types: TypeRegistry, owner: string, description: string, rows: [string, Field][]): Json {
  const required = rows.filter(([, f]) => f.required).map(([p]) => p);
  return {
    type: "object",
    description,
    properties: Object.fromEntries(rows.map(([p, f]) => [p, property(types, owner, p, f)])),
    ...(required.length ? { required } : {}),
  };
}

/** The schema's `uptime:index:MonitorGroup` resource, registering the object types it uses. */
export function monitorGroupSpec(types: TypeRegistry, kinds: SchemaKinds): Json {
  const monitor = rowsOf(kinds.Monitor as SchemaKinds[string]);
  const window = rowsOf(kinds.MaintenanceWindow as SchemaKinds[string]);
  const shared = new Set<string>(GROUP_SETTINGS);
  // A shared setting states no default: an SDK would fill it in, and it would win over the group's.
  const unset = (f: Field): Field => ({ ...f, required: false, default: undefined });
  const groupMonitor = [...monitor].map(([p, f]): [string, Field] => [p, shared.has(p) ? unset(f) : f]);
  types.types.set(
    typeToken("GroupMonitor"),
    objectType(
      types,
      "Monitor",
      "A monitor of a MonitorGroup: a Monitor's inputs; each setting it leaves out is the group's.",
      groupMonitor,
    ),
  );
  const groupWindow = [...window].filter(([p]) => p !== "monitorIds" && p !== "connection" && p !== "adopt");
  types.types.set(
    typeToken("GroupMaintenanceWindow"),
    objectType(types, "MaintenanceWindow", "A maintenance window covering every monitor of the group.", groupWindow),
  );
  const settings = GROUP_SETTINGS.map((p): [string, Field] => [
    p,
    p === "connection" ? RESOURCE_FIELDS.connection : unset(monitor.get(p) as Field),
  ]);
  const inputs: Json = {
    ...Object.fromEntries(
      settings.map(([p, f]) => [
        p,
        {
          ...property(types, "Monitor", p, f),
          description: `For every monitor that does not set it: ${f.description}`,
        },
      ]),
    ),
    monitors: {
      type: "object",
      additionalProperties: { $ref: `#/types/${typeToken("GroupMonitor")}` },
      description: "The monitors, by key: each becomes the Monitor `<group>-<key>`.",
    },
    maintenanceWindows: {
      type: "object",
      additionalProperties: { $ref: `#/types/${typeToken("GroupMaintenanceWindow")}` },
      description:
        "Maintenance windows, by key: each becomes the MaintenanceWindow `<group>-<key>` covering every monitor of the group.",
    },
  };
  return {
    isComponent: true,
    description:
      "Monitors sharing settings (locations, channels, interval, retries as `confirmations`, tags, maintenance windows): " +
      "a monitor's own value wins over the group's, except tags, which add up.",
    inputProperties: inputs,
    requiredInputs: ["monitors"],
    properties: {
      monitorIds: {
        type: "array",
        items: { type: "string" },
        description: "The ids of the group's monitors, in key order.",
      },
      monitorIdsByName: {
        type: "object",
        additionalProperties: { type: "string" },
        description: "The id of each of the group's monitors, by its key in `monitors`.",
      },
      maintenanceWindowIds: {
        type: "array",
        items: { type: "string" },
        description: "The ids of the group's maintenance windows, in key order.",
      },
    },
    required: ["monitorIds", "monitorIdsByName", "maintenanceWindowIds"],
  };
}

/** One of the plugin's own resources, registered from `construct`. */
class PluginResource extends CustomResource {
  constructor(type: string, name: string, props: Inputs, opts: ComponentResourceOptions) {
    super(type, name, props, opts);
  }
}

/** The plugin's group: its children are the plugin's own resources, which the engine serves with it. */
class NativeMonitorGroup extends ComponentResource {
  readonly monitorIds: Output<string[]>;
  readonly monitorIdsByName: Output<Record<string, string>>;
  readonly maintenanceWindowIds: Output<string>[];

  constructor(name: string, args: MonitorGroupArgs, opts: ComponentResourceOptions) {
    super(MONITOR_GROUP, name, {}, opts);
    const native = (kind: string) => (n: string, a: object, o: { parent: ComponentResource }) =>
      new PluginResource(`${PACKAGE}:index:${kind}`, n, a as Inputs, o);
    const children = groupChildren(this, name, args, {
      monitor: native("Monitor"),
      window: native("MaintenanceWindow"),
    });
    this.monitorIds = children.monitorIds;
    this.monitorIdsByName = children.monitorIdsByName;
    this.maintenanceWindowIds = Object.values(children.windows).map((w) => w.id);
    this.registerOutputs({
      monitorIds: this.monitorIds,
      monitorIdsByName: this.monitorIdsByName,
      maintenanceWindowIds: this.maintenanceWindowIds,
    });
  }
}

/**
 * The `construct` of a MonitorGroup: the group and its children registered from the plugin. The
 * map of monitors must be known at preview (its keys name the monitors), each monitor's values
 * may be Outputs of other resources.
 */
export async function constructMonitorGroup(
  name: string,
  inputs: Inputs,
  options: ComponentResourceOptions,
): Promise<ConstructResult> {
  if (!inputs.monitors || typeof inputs.monitors !== "object" || Object.keys(inputs.monitors).length === 0) {
    throw new Error(`MonitorGroup ${name}: monitors: must be a map with at least one monitor, known at preview`);
  }
  const group = new NativeMonitorGroup(name, inputs as unknown as MonitorGroupArgs, options);
  return {
    urn: group.urn,
    state: {
      monitorIds: group.monitorIds,
      monitorIdsByName: group.monitorIdsByName,
      maintenanceWindowIds: group.maintenanceWindowIds,
    },
  };
}
