import { LocalWorkspace } from "@pulumi/pulumi/automation";
import {
  COMPONENT_KEY,
  ID_PREFIX,
  idPattern,
  type Incident,
  INCIDENT_IMPACTS,
  type IncidentImpact,
  type IncidentState,
  type StatusPage,
} from "../../api";
import { UptimeClient } from "../client/client";
import { type Connection, resolveConnection } from "../client/connection";

/** What `pulumi-uptime incident` was asked to do. */
export interface IncidentOptions {
  action: "list" | "open" | "update" | "resolve";
  /** The page: its id (`sp_…`) or its slug. */
  page: string;
  /** The incident (update, resolve). */
  id?: string;
  title?: string;
  message?: string;
  state?: IncidentState;
  /** `key=impact` pairs (`api=major-outage`). */
  components?: string[];
  /** list: `open`, `resolved` or `all` (default). */
  which?: "open" | "resolved" | "all";
  /** The stack whose `uptime:baseUrl`/`uptime:apiKey` to use when UPTIME_API_URL/UPTIME_API_KEY are not set. */
  stackName?: string;
  workDir?: string;
  connection?: Connection;
}

/** The connection: explicit, else UPTIME_API_URL/UPTIME_API_KEY, else the stack's config (as `trigger`). */
async function connectionOf(options: IncidentOptions): Promise<Connection> {
  if (options.connection) return options.connection;
  if (!options.stackName) return resolveConnection(undefined);
  const stack = await LocalWorkspace.selectStack({
    stackName: options.stackName,
    workDir: options.workDir ?? process.cwd(),
  });
  const config = await stack.getAllConfig();
  const get = (key: string) => config[`uptime:${key}`]?.value;
  return resolveConnection(undefined, {
    baseUrl: get("baseUrl"),
    apiKey: get("apiKey"),
    allowInsecureHttp: get("allowInsecureHttp"),
  });
}

/** `key=impact` pairs as the API's map; a malformed pair is an error naming it. */
export function parseImpacts(pairs: readonly string[] = []): Record<string, IncidentImpact> {
  const out: Record<string, IncidentImpact> = {};
  for (const pair of pairs) {
    // A key has no "=", so the first "=" ends it.
    const at = pair.indexOf("=");
    const [key, impact] = [pair.slice(0, at), pair.slice(at + 1)];
    if (at < 0 || !COMPONENT_KEY.test(key) || !(INCIDENT_IMPACTS as readonly string[]).includes(impact))
      throw new Error(`--component ${pair}: must be KEY=IMPACT with IMPACT one of ${INCIDENT_IMPACTS.join(", ")}`);
    out[key] = impact as IncidentImpact;
  }
  return out;
}

async function pageId(client: UptimeClient, page: string): Promise<string> {
  if (idPattern(ID_PREFIX.statusPage).test(page)) return page;
  const found = (await client.listAll<StatusPage>("/api/v1/status-pages")).find((p) => p.slug === page);
  if (!found) throw new Error(`--page ${page}: no status page with this id or slug`);
  return found.id;
}

/** Runs one incident action; the incidents it returns (one, or the list). */
export async function incidentCommand(options: IncidentOptions): Promise<Incident[]> {
  const client = new UptimeClient(await connectionOf(options));
  const base = `/api/v1/status-pages/${await pageId(client, options.page)}/incidents`;
  const need = (value: string | undefined, flag: string): string => {
    if (!value) throw new Error(`${flag} is required for incident ${options.action}`);
    return value;
  };
  const components = options.components?.length ? parseImpacts(options.components) : undefined;
  switch (options.action) {
    case "list":
      return (await client.request<Incident[]>("GET", base, { query: { state: options.which ?? "all" } })).data;
    case "open": {
      const body = {
        title: need(options.title, "--title"),
        message: need(options.message, "--message"),
        ...(options.state ? { state: options.state } : {}),
        ...(components ? { components } : {}),
      };
      return [(await client.request<Incident>("POST", base, { body })).data];
    }
    case "update":
    case "resolve": {
      const state = options.action === "resolve" ? "resolved" : need(options.state, "--state");
      const message =
        options.action === "resolve" ? (options.message ?? "Resolved.") : need(options.message, "--message");
      const body = { state, message, ...(components ? { components } : {}) };
      return [(await client.request<Incident>("POST", `${base}/${need(options.id, "--id")}/updates`, { body })).data];
    }
  }
}

/** The incidents as lines: id, state, title, when. */
export function formatIncidents(incidents: readonly Incident[]): string {
  if (!incidents.length) return "No incidents.\n";
  return incidents
    .map(
      (i) =>
        `${i.id}  ${i.state.padEnd(13)} ${i.title}  (${i.resolved_at ? `resolved ${i.resolved_at}` : `since ${i.created_at}`})\n`,
    )
    .join("");
}
