/**
 * Lookups of objects made elsewhere (another stack, another team, by hand): `getChannel`,
 * `getMonitor`, `getStatusPage` and `getMaintenanceWindow`, each by id or by name (a status page
 * by slug), each in a plain form (a Promise) and an Output form (`getChannelOutput`), as Pulumi's
 * own packages offer them.
 */
// Subpaths, not the SDK root: its index loads the Automation API, which programs do not need.
import { type Input, type Output, output } from "@pulumi/pulumi/output";
import {
  CHANNEL_FIELDS,
  type FieldTable,
  MAINTENANCE_WINDOW_FIELDS,
  MONITOR_FIELDS,
  STATUS_PAGE_FIELDS,
} from "../../api";
import { secretProperties } from "../kinds/fields";
import type { KindName } from "../kinds/registry";
import { findOne } from "../runtime/lookup";
import type { Connection } from "../client/connection";
import type { Props } from "../kinds/values";
import { lookupError } from "./lookup-errors";
import { connectionOf, type FunctionOptions } from "./functions";
import type { TsOf } from "./types";

type Row = { type: unknown; secret?: boolean };
type PlainKeys<T> = { [K in keyof T]: T[K] extends { secret: true } ? never : K }[keyof T];

/**
 * What a lookup returns: the object's id and every field of its table as the service holds it,
 * secret ones left out (reads never reveal them), and `endpoint`, the service that holds it.
 */
export type LookupResult<T extends FieldTable> = { readonly id: string; readonly endpoint: string } & {
  readonly [K in PlainKeys<T>]: T[K] extends Row ? TsOf<T[K]["type"]> | undefined : never;
};

/** A monitor as `getMonitor` finds it. */
export type MonitorLookup = LookupResult<typeof MONITOR_FIELDS>;
/** A channel as `getChannel` finds it (its config left out: it is secret). */
export type ChannelLookup = LookupResult<typeof CHANNEL_FIELDS>;
/** A status page as `getStatusPage` finds it. */
export type StatusPageLookup = LookupResult<typeof STATUS_PAGE_FIELDS>;
/** A maintenance window as `getMaintenanceWindow` finds it. */
export type MaintenanceWindowLookup = LookupResult<typeof MAINTENANCE_WINDOW_FIELDS>;

/** Which object: exactly one of `id` and `name`. A name must match exactly one object of the account. */
export interface ByIdOrName {
  /** The object's id. */
  id?: string;
  /** The object's display name, exactly as written; it must match exactly one object. */
  name?: string;
}

/** Which status page: exactly one of `id` and `slug`. */
export interface ByIdOrSlug {
  /** The status page's id, `sp_…`. */
  id?: string;
  /** The status page's slug (unique on the service). */
  slug?: string;
}

/** The Output form's arguments: each may be an Output of another resource. */
export type InputArgs<T> = { [K in keyof T]: Input<T[K]> };

const TABLES: Record<KindName, FieldTable> = {
  Monitor: MONITOR_FIELDS,
  Channel: CHANNEL_FIELDS,
  StatusPage: STATUS_PAGE_FIELDS,
  MaintenanceWindow: MAINTENANCE_WINDOW_FIELDS,
};

async function lookup<R>(kind: KindName, args: ByIdOrName & ByIdOrSlug, opts?: FunctionOptions): Promise<R> {
  let connection: Connection | undefined;
  let found: Props;
  try {
    connection = connectionOf(opts);
    found = await findOne(kind, args, connection);
  } catch (err) {
    throw lookupError(`get${kind}`, args, err, connection);
  }
  for (const p of [...secretProperties(TABLES[kind]), "connection", "adopt"]) delete found[p];
  return Object.freeze(found) as R;
}

/** The Output form: waits for the arguments, and stays unknown at preview while one is. */
function lookupOutput<R>(kind: KindName, args: InputArgs<ByIdOrName & ByIdOrSlug>, opts?: FunctionOptions): Output<R> {
  return output(args).apply((a) => lookup<R>(kind, a as ByIdOrName & ByIdOrSlug, opts)) as unknown as Output<R>;
}

/** Looks up a monitor by id, or by its name (which must match exactly one monitor of the account). */
export function getMonitor(args: ByIdOrName, opts?: FunctionOptions): Promise<MonitorLookup> {
  return lookup("Monitor", args, opts);
}

/** `getMonitor` taking Inputs and answering an Output. */
export function getMonitorOutput(args: InputArgs<ByIdOrName>, opts?: FunctionOptions): Output<MonitorLookup> {
  return lookupOutput("Monitor", args, opts);
}

/** Looks up a notification channel by id, or by its name (which must match exactly one channel of the account). */
export function getChannel(args: ByIdOrName, opts?: FunctionOptions): Promise<ChannelLookup> {
  return lookup("Channel", args, opts);
}

/** `getChannel` taking Inputs and answering an Output. */
export function getChannelOutput(args: InputArgs<ByIdOrName>, opts?: FunctionOptions): Output<ChannelLookup> {
  return lookupOutput("Channel", args, opts);
}

/** Looks up a status page by id or by slug. */
export function getStatusPage(args: ByIdOrSlug, opts?: FunctionOptions): Promise<StatusPageLookup> {
  return lookup("StatusPage", args, opts);
}

/** `getStatusPage` taking Inputs and answering an Output. */
export function getStatusPageOutput(args: InputArgs<ByIdOrSlug>, opts?: FunctionOptions): Output<StatusPageLookup> {
  return lookupOutput("StatusPage", args, opts);
}

/** Looks up a maintenance window by id, or by its name (which must match exactly one window of the account). */
export function getMaintenanceWindow(args: ByIdOrName, opts?: FunctionOptions): Promise<MaintenanceWindowLookup> {
  return lookup("MaintenanceWindow", args, opts);
}

/** `getMaintenanceWindow` taking Inputs and answering an Output. */
export function getMaintenanceWindowOutput(
  args: InputArgs<ByIdOrName>,
  opts?: FunctionOptions,
): Output<MaintenanceWindowLookup> {
  return lookupOutput("MaintenanceWindow", args, opts);
}
