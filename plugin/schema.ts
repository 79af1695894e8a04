/**
 * The native plugin's Pulumi package schema, generated from the kinds' field tables (api/*.ts,
 * as the runtime reads them), so the plugin, its SDKs and the dynamic resources describe the same
 * properties, secrets and replace-on-change fields.
 */
import { functionSpecs } from "./functions";
import { MONITOR_GROUP, monitorGroupSpec } from "./monitor-group";
import { property, requiredOutputs, type SchemaKinds, typedRows } from "./schema-rows";
import { PACKAGE, TypeRegistry } from "./schema-types";

export { PACKAGE } from "./schema-types";

type Json = Record<string, unknown>;

/** The project's home: its repository, and where its docs and issues are. */
export const REPOSITORY = "https://github.com/pulumi-uptime/pulumi-uptime";

/** The config every provider instance reads: the same keys as the dynamic resources' stack config. */
const CONFIG: Record<string, Json> = {
  baseUrl: {
    type: "string",
    description: "Base URL of the service, e.g. `https://uptime.example.com` (no `/api/v1`). Env: `UPTIME_API_URL`.",
    defaultInfo: { environment: ["UPTIME_API_URL"] },
  },
  apiKey: {
    type: "string",
    secret: true,
    description: "API key, `uk_…`. Env: `UPTIME_API_KEY`. Kept secret in state.",
    defaultInfo: { environment: ["UPTIME_API_KEY"] },
  },
  allowInsecureHttp: {
    type: "boolean",
    description:
      "Allows a plain `http://` base URL to a host that is not loopback (the API key then travels unencrypted). " +
      "Env: `UPTIME_ALLOW_INSECURE_HTTP`.",
    defaultInfo: { environment: ["UPTIME_ALLOW_INSECURE_HTTP"] },
  },
};

function resource(types: TypeRegistry, name: string, kind: SchemaKinds[string]): Json {
  const { inputs, outputs } = typedRows(kind);
  return {
    description: kind.description,
    properties: Object.fromEntries(outputs.map(([p, f]) => [p, property(types, name, p, f)])),
    // An output the state may leave out (a monitor's of other types) is no promise.
    required: requiredOutputs(outputs).filter((p) => !kind.leavesOut?.includes(p)),
    inputProperties: Object.fromEntries(inputs.map(([p, f]) => [p, property(types, name, p, f)])),
    requiredInputs: inputs.filter(([, f]) => f.required).map(([p]) => p),
  };
}

/** The package schema (Pulumi's PackageSpec) for these kinds, at this version. */
export function packageSchema(kinds: SchemaKinds, version: string): Json {
  const types = new TypeRegistry();
  const resources = Object.fromEntries(
    Object.entries(kinds).map(([name, k]) => [`${PACKAGE}:index:${name}`, resource(types, name, k)]),
  );
  // The group's monitors and windows are the plugin's own: only with both kinds is there a group.
  if (kinds.Monitor && kinds.MaintenanceWindow) resources[MONITOR_GROUP] = monitorGroupSpec(types, kinds);
  const functions = functionSpecs(kinds, types);
  return {
    name: PACKAGE,
    displayName: "Uptime",
    version,
    description: "Uptime monitors, notification channels and status pages.",
    keywords: ["pulumi", "uptime", "monitoring", "status-page", "kind/native", "category/monitoring"],
    license: "Apache-2.0",
    homepage: REPOSITORY,
    repository: REPOSITORY,
    publisher: "pulumi-uptime",
    // Where `pulumi plugin install` finds pulumi-resource-uptime-v<version>-<os>-<arch>.tar.gz.
    pluginDownloadURL: "github://api.github.com/pulumi-uptime/pulumi-uptime",
    config: { variables: CONFIG },
    provider: {
      description: "The uptime provider: which service and API key a stack's resources use.",
      inputProperties: CONFIG,
      properties: { baseUrl: CONFIG.baseUrl },
    },
    resources,
    functions,
    types: types.section(),
    language: {
      nodejs: {
        packageName: "@pulumi-uptime/native",
        respectSchemaVersion: true,
        dependencies: { "@pulumi/pulumi": "^3.0.0" },
      },
      python: {
        packageName: "pulumi_uptime",
        respectSchemaVersion: true,
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        pyproject: { enabled: true },
      },
      go: {
        importBasePath: "github.com/pulumi-uptime/pulumi-uptime/sdk/go/uptime",
        respectSchemaVersion: true,
        generateResourceContainerTypes: false,
      },
    },
  };
}
