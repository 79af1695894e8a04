/**
 * The six operations every CRUD resource has (see routes/crud.ts), named by one rule: `/api/v1/<path>`
 * lists (`list<Name>s`) and creates (`create<Name>`), `…/batch` writes up to 100, `…/{id}` gets,
 * updates and deletes. `noun` is what the summaries call one (default: the name's words in lower case).
 */
function crudOperations(path: string, name: string, noun?: string): Record<string, [string, string]> {
  const words = name.replace(/(?<=[a-z])(?=[A-Z])/g, " ").toLowerCase();
  const one = noun ?? words;
  const base = `/api/v1/${path}`;
  return {
    [`GET ${base}`]: [`list${name}s`, `List ${one}s`],
    [`POST ${base}`]: [`create${name}`, `Create a ${one}`],
    [`POST ${base}/batch`]: [`batch${name}s`, `Create, update or delete up to 100 ${words}s`],
    [`GET ${base}/{id}`]: [`get${name}`, `Get a ${one}`],
    [`PATCH ${base}/{id}`]: [`update${name}`, `Update a ${one}`],
    [`DELETE ${base}/{id}`]: [`delete${name}`, `Delete a ${one}`],
  };
}

/**
 * Each operation's `operationId` and `summary` in the OpenAPI document, by method and path.
 * Generated SDKs name their methods after the operationId, so an id never changes once
 * published; test/server/openapi.test.ts fails while an operation of the document is missing here.
 */
export const OPERATIONS: Readonly<Record<string, readonly [operationId: string, summary: string]>> = {
  ...crudOperations("monitors", "Monitor"),
  "POST /api/v1/monitors/{id}/pause": ["pauseMonitor", "Pause a monitor's checks"],
  "POST /api/v1/monitors/{id}/resume": ["resumeMonitor", "Resume a monitor's checks"],
  "POST /api/v1/monitors/test": ["testMonitorSpec", "Run a monitor spec's check once, storing nothing"],
  "POST /api/v1/monitors/{id}/test": ["testMonitor", "Run a stored monitor's check once, storing nothing"],
  "POST /api/v1/monitors/trigger": [
    "triggerMonitors",
    "Run deployed monitors now (by id, tag or location) and wait for their results",
  ],
  "GET /api/v1/monitors/{id}/heartbeats": ["listMonitorHeartbeats", "List a monitor's check results"],
  "GET /api/v1/monitors/{id}/heartbeats/{heartbeat}/screenshot": [
    "getHeartbeatScreenshot",
    "Get the screenshot of a failed browser monitor's run",
  ],
  "GET /api/v1/monitors/{id}/stats": ["getMonitorStats", "Get a monitor's uptime and response-time statistics"],
  "POST /api/v1/monitors/{id}/push-token": ["issueMonitorPushToken", "Issue a heartbeat monitor's push URL"],
  ...crudOperations("channels", "Channel", "notification channel"),
  "POST /api/v1/channels/{id}/test": ["testChannel", "Send a test notification"],
  "GET /api/v1/channels/{id}/deliveries": ["listChannelDeliveries", "List a channel's recent deliveries"],
  ...crudOperations("status-pages", "StatusPage"),
  "GET /api/status/{file}": ["getStatusDocument", "Get a status page's public document (no key)"],
  "GET /api/v1/status-pages/{id}/incidents": [
    "listStatusPageIncidents",
    "List a status page's incidents, newest first",
  ],
  "POST /api/v1/status-pages/{id}/incidents": ["openStatusPageIncident", "Open an incident on a status page"],
  "GET /api/v1/status-pages/{id}/incidents/{incident}": ["getStatusPageIncident", "Get an incident and its updates"],
  "PATCH /api/v1/status-pages/{id}/incidents/{incident}": [
    "updateStatusPageIncident",
    "Change an incident's title or post-mortem",
  ],
  "POST /api/v1/status-pages/{id}/incidents/{incident}/updates": [
    "postStatusPageIncidentUpdate",
    "Post an update to an open incident (state resolved resolves it)",
  ],
  "GET /api/v1/status-pages/{id}/components/{key}": ["getStatusPageComponent", "Get a component and its state now"],
  "PATCH /api/v1/status-pages/{id}/components/{key}": [
    "updateStatusPageComponent",
    "Set a manual component's state, or rename a component",
  ],
  "PUT /api/v1/status-pages/{id}/components/{key}": [
    "setStatusPageComponent",
    "Set a manual component's state, or rename a component (as PATCH)",
  ],
  ...crudOperations("maintenance-windows", "MaintenanceWindow"),
  "GET /api/push/{token}": ["pingHeartbeat", "Ping a heartbeat monitor (no key; the token is secret)"],
  "POST /api/push/{token}": ["pingHeartbeatWithBody", "Ping a heartbeat monitor with a body (no key)"],
  "GET /api/v1/locations": ["listLocations", "List checker locations and their agents"],
  "POST /api/v1/agent/leases": ["leaseChecks", "Lease the checks due at the agent's location"],
  "POST /api/v1/agent/results": ["postCheckResults", "Post the results of leased checks"],
};

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
}

/** `GET /api/v1/things/{id}/sub-things` → `getThingsSubThings`: for an operation not in the table yet. */
const derivedId = (method: string, path: string) =>
  method +
  path
    .replace(/^\/api(\/v1)?\//, "")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w && w !== "id")
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

/**
 * Sets each operation's `operationId` and `summary` from {@link OPERATIONS}; a summary written on
 * the route becomes the description when it has none. An operation missing from the table gets
 * an id derived from its method and path, so the document stays valid.
 */
export function withOperations<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const [path, byMethod] of Object.entries(paths)) {
    for (const [method, shared] of Object.entries(byMethod)) {
      // A route of several methods (GET and POST of a ping) shares one object among them.
      const op: Operation = { ...shared };
      byMethod[method] = op;
      const [operationId, summary] = OPERATIONS[`${method.toUpperCase()} ${path}`] ?? [
        derivedId(method, path),
        undefined,
      ];
      if (summary && op.summary && op.summary !== summary) op.description ??= op.summary;
      op.operationId = operationId;
      op.summary = summary ?? op.summary ?? `${method.toUpperCase()} ${path}`;
    }
  }
  return document;
}
