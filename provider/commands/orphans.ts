import "../node-version";
import { LocalWorkspace, type PulumiCommand } from "@pulumi/pulumi/automation";
import { clientFor } from "../client/client";
import { type Connection, type PartialConnection, resolveConnection } from "../client/connection";
import { hasCode } from "../client/errors";
import { instanceOfMark, isStackMark, type MarkedKind, STACK_INSTANCE } from "../runtime/identity";

/** A live object that carries the stack's mark but that the stack's state does not hold. */
export interface Orphan {
  kind: MarkedKind;
  id: string;
  /** Its name (a status page's title). */
  name: string;
  externalId: string;
  endpoint: string;
}

export interface OrphanReport {
  stack: string;
  project: string;
  /** The connections searched: the stack's own and every one a resource in the state uses. */
  endpoints: string[];
  orphans: Orphan[];
}

export interface OrphanOptions {
  stackName: string;
  /** The Pulumi program's folder. */
  workDir: string;
  /** A specific CLI; by default `pulumi` from PATH. */
  pulumiCommand?: PulumiCommand;
  envVars?: Record<string, string>;
}

const COLLECTIONS = [
  ["Monitor", "/api/v1/monitors"],
  ["Channel", "/api/v1/channels"],
  ["StatusPage", "/api/v1/status-pages"],
  ["MaintenanceWindow", "/api/v1/maintenance-windows"],
] as const;

interface StateResource {
  id?: string;
  type?: string;
  inputs?: { stackInstance?: unknown };
  outputs?: { connection?: PartialConnection; endpoint?: string; instance?: unknown; externalId?: unknown };
}

/**
 * The stack instances the state knows: its `StackIdentity` resource's, each native provider's,
 * and those in the marks of the objects it holds (an instance of a provider version since
 * replaced, or of a `StackIdentity` since deleted).
 */
export function stackInstancesOf(resources: readonly StateResource[]): Set<string> {
  const found = new Set<string>();
  const add = (instance: unknown) => {
    if (typeof instance === "string" && STACK_INSTANCE.test(instance)) found.add(instance);
  };
  for (const r of resources) {
    if (r.type?.endsWith("uptime:StackIdentity")) add(r.outputs?.instance ?? r.id);
    if (r.type === "pulumi:providers:uptime") add(r.inputs?.stackInstance);
    const fromMark = typeof r.outputs?.externalId === "string" ? instanceOfMark(r.outputs.externalId) : undefined;
    if (fromMark) found.add(fromMark);
  }
  return found;
}

/** The account's objects of a collection; none where the server lacks it (extensions). */
async function listed(client: ReturnType<typeof clientFor>, path: string) {
  try {
    return await client.listAll<{ id: string; name?: string; title?: string; external_id?: string | null }>(path);
  } catch (err) {
    if (hasCode(err, "not_found")) return [];
    throw err;
  }
}

/** The connections to search: the stack config's (after the environment) and the resources' own. */
function connectionsOf(config: Record<string, { value: string }>, resources: readonly StateResource[]): Connection[] {
  const out = new Map<string, Connection>();
  const add = (c: Connection) => out.set(`${c.baseUrl}\n${c.apiKey}`, c);
  try {
    const get = (key: string) => config[`uptime:${key}`]?.value;
    add(
      resolveConnection(undefined, {
        baseUrl: get("baseUrl"),
        apiKey: get("apiKey"),
        allowInsecureHttp: get("allowInsecureHttp"),
      }),
    );
  } catch {
    // No default key: only the resources' own connections can be searched.
  }
  for (const r of resources) {
    const own = r.outputs?.connection;
    if (own && typeof own === "object" && (own.apiKey || own.baseUrl)) {
      try {
        const allowInsecureHttp = own.allowInsecureHttp ?? config["uptime:allowInsecureHttp"]?.value;
        add(
          resolveConnection(
            { baseUrl: own.baseUrl ?? r.outputs?.endpoint, apiKey: own.apiKey, allowInsecureHttp },
            {},
            {},
          ),
        );
      } catch {
        // A connection the state cannot fully name is skipped.
      }
    }
  }
  return [...out.values()];
}

/**
 * Lists the live objects that carry this stack's mark (`external_id`: one of the stack's
 * instances, or `pulumi/<project>/<stack>/<Kind>/…` as versions before instances wrote it) but
 * whose ids the stack's state does not hold: what an interrupted `pulumi up` left behind beyond
 * what the next `up` takes over, or what `retainOnDelete` kept. Reads the state with
 * `pulumi stack export`; writes nothing.
 */
export async function findOrphans(options: OrphanOptions): Promise<OrphanReport> {
  const stack = await LocalWorkspace.selectStack(
    { stackName: options.stackName, workDir: options.workDir },
    { pulumiCommand: options.pulumiCommand, envVars: options.envVars },
  );
  const project = (await stack.workspace.projectSettings()).name;
  const deployment = (await stack.exportStack()).deployment as { resources?: StateResource[] };
  const resources = deployment.resources ?? [];
  const known = new Set(resources.map((r) => r.id).filter((id): id is string => Boolean(id)));
  const ours = { project, stack: options.stackName.split("/").pop() as string, instances: stackInstancesOf(resources) };
  const connections = connectionsOf(await stack.getAllConfig(), resources);
  const orphans: Orphan[] = [];
  for (const connection of connections) {
    const client = clientFor(connection);
    for (const [kind, path] of COLLECTIONS) {
      for (const o of await listed(client, path)) {
        if (!o.external_id || !isStackMark(o.external_id, ours) || known.has(o.id)) continue;
        orphans.push({
          kind,
          id: o.id,
          name: o.name ?? o.title ?? "",
          externalId: o.external_id,
          endpoint: connection.baseUrl,
        });
      }
    }
  }
  return { stack: options.stackName, project, endpoints: [...new Set(connections.map((c) => c.baseUrl))], orphans };
}

/** The report as text for a terminal or a CI log. */
export function formatOrphans(report: OrphanReport): string {
  if (report.orphans.length === 0) {
    return `Stack ${report.stack}: no orphans (searched ${report.endpoints.join(", ") || "no service"}).\n`;
  }
  const lines = [
    `Stack ${report.stack}: ${report.orphans.length} object(s) carry this stack's mark but are not in its state:`,
  ];
  for (const o of report.orphans) lines.push(`  ${o.kind} ${o.id} "${o.name}" (${o.externalId}) at ${o.endpoint}`);
  lines.push("Delete them on the service, or keep them by declaring each with `adopt: <id>`.");
  return `${lines.join("\n")}\n`;
}
