import "../node-version";
import { LocalWorkspace, type PulumiCommand } from "@pulumi/pulumi/automation";
import { type TriggerRequest, type TriggerResult, type TriggerRun } from "../../api";
import { UptimeClient } from "../client/client";
import { type Connection, resolveConnection } from "../client/connection";
import { outcomeOf, shownTarget } from "../runtime/test-checks";
import type { MonitorTestRow, TestReport } from "./test";

/** Which deployed monitors to run now, where, and whether to store the results. */
export interface TriggerOptions {
  /** The stack whose deployed monitors run (its state names them); with `tag` or `ids`, those of them. */
  stackName?: string;
  /** The Pulumi program's folder, for `stackName`. */
  workDir?: string;
  /** The monitors carrying this tag. */
  tag?: string;
  /** These monitors. */
  ids?: string[];
  /** Run every check at this location instead of at each monitor's own locations. */
  location?: string;
  /** Store each check as a heartbeat (it moves health and may alert). Default false: nothing is stored. */
  record?: boolean;
  /** A selection of no monitors passes (an empty report) instead of failing. Default false. */
  allowEmpty?: boolean;
  /** The service; default `UPTIME_API_URL`/`UPTIME_API_KEY`, then the stack's `uptime:baseUrl`/`uptime:apiKey`. */
  connection?: Connection;
  /** A specific CLI; by default `pulumi` from PATH. */
  pulumiCommand?: PulumiCommand;
  envVars?: Record<string, string>;
}

/** How long the trigger call may take: every check of up to 200 ends well within it. */
const TRIGGER_TIMEOUT_MS = 15 * 60_000;

interface StateResource {
  id?: string;
  type?: string;
  urn?: string;
  outputs?: { endpoint?: string };
}

/** The stack's deployed monitors on the connection (resource name by id), and the connection from its config. */
async function stackMonitors(options: TriggerOptions): Promise<{ names: Map<string, string>; connection: Connection }> {
  const stack = await LocalWorkspace.selectStack(
    { stackName: options.stackName as string, workDir: options.workDir ?? process.cwd() },
    { pulumiCommand: options.pulumiCommand, envVars: options.envVars },
  );
  const config = await stack.getAllConfig();
  const get = (key: string) => config[`uptime:${key}`]?.value;
  const connection =
    options.connection ??
    resolveConnection(undefined, {
      baseUrl: get("baseUrl"),
      apiKey: get("apiKey"),
      allowInsecureHttp: get("allowInsecureHttp"),
    });
  const resources = ((await stack.exportStack()).deployment as { resources?: StateResource[] }).resources ?? [];
  const names = new Map<string, string>();
  for (const r of resources) {
    const isMonitor = r.type === "pulumi-nodejs:dynamic/uptime:Monitor" || r.type === "uptime:index:Monitor";
    // A monitor declared with its own connection elsewhere is not this service's to run.
    if (!isMonitor || !r.id || (r.outputs?.endpoint && r.outputs.endpoint !== connection.baseUrl)) continue;
    names.set(r.id, r.urn?.split("::").pop() ?? r.id);
  }
  return { names, connection };
}

/** A run as a row of `pulumi-uptime test`'s table. */
function rowOf(run: TriggerRun, resource: string): MonitorTestRow {
  const { steps, ...outcome } = outcomeOf(run);
  return { resource, target: shownTarget(run.url), ...outcome, tags: [], ...(steps ? { steps } : {}) };
}

/**
 * Runs the deployed monitors that the stack, a tag or ids select, now, at their locations (or
 * `location`), and waits for every result: the post-deploy gate after `pulumi up`. Through the
 * service's trigger, which keeps to the key's rate limit and dry-run cap; nothing is stored
 * unless `record`.
 */
export async function triggerMonitors(options: TriggerOptions): Promise<TestReport> {
  if (!options.stackName && !options.tag && !options.ids?.length)
    throw new Error("give --stack, --tag or --id to select the monitors to run");
  const fromStack = options.stackName ? await stackMonitors(options) : undefined;
  const connection = fromStack?.connection ?? options.connection ?? resolveConnection(undefined);
  const subject = [
    options.stackName && `Stack ${options.stackName}`,
    options.tag && `tag ${options.tag}`,
    options.ids?.length && `${options.ids.length} id(s)`,
  ]
    .filter(Boolean)
    .join(", ");
  const ids = fromStack
    ? [...fromStack.names.keys()].filter((id) => !options.ids?.length || options.ids.includes(id))
    : options.ids;
  if (fromStack && ids?.length === 0) return emptySelection(options, subject);
  const body: Partial<TriggerRequest> = {
    ...(ids?.length ? { monitor_ids: ids } : {}),
    tag: options.tag,
    location: options.location,
    record: options.record === true,
  };
  const client = new UptimeClient(connection, { timeoutMs: TRIGGER_TIMEOUT_MS });
  // A recorded run must not be stored twice by a retry: the key makes the service answer it once.
  const send = body.record ? { idempotencyKey: UptimeClient.idempotencyKey() } : { idempotent: true };
  const result = (await client.request<TriggerResult>("POST", "/api/v1/monitors/trigger", { body, ...send })).data;
  const many = new Set(result.runs.map((r) => r.monitor_id)).size < result.runs.length;
  const monitors = result.runs.map((run) => {
    const name = fromStack?.names.get(run.monitor_id) ?? run.name;
    return rowOf(run, many ? `${name} @${run.location}` : name);
  });
  for (const s of result.skipped) {
    monitors.push({
      resource: fromStack?.names.get(s.monitor_id) ?? s.name,
      target: null,
      outcome: "skipped",
      failure: s.reason,
      ms: null,
      tags: [],
    });
  }
  if (monitors.length === 0) return emptySelection(options, subject);
  return { stack: options.stackName ?? "", title: subject, monitors, passed: result.passed };
}

/**
 * The report of a selection of no monitors: an error unless `allowEmpty`, so that a gate whose
 * tag or stack is misspelt fails instead of passing with nothing run.
 */
function emptySelection(options: TriggerOptions, subject: string): TestReport {
  if (!options.allowEmpty) {
    throw Object.assign(
      new Error(`${subject} selects no monitors: nothing was run (pass --allow-empty if that is expected)`),
      { code: "empty_selection" },
    );
  }
  return { stack: options.stackName ?? "", title: subject, monitors: [], passed: true };
}
