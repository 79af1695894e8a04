/**
 * The native plugin's Pulumi package schema, generated from the kinds' field tables so that the
 * plugin, its SDKs and the dynamic resources describe the same properties.
 */
import type { FieldRow, FieldType, KindTable } from "./fields";

/** The package name: resource tokens are `uptime:index:<Kind>`, config keys `uptime:<key>`. */
export const PACKAGE = "uptime";

type Json = Record<string, unknown>;

const TYPES: Record<FieldType, Json> = {
  string: { type: "string" },
  integer: { type: "integer" },
  boolean: { type: "boolean" },
  "string[]": { type: "array", items: { type: "string" } },
  "string-map": { type: "object", additionalProperties: { type: "string" } },
  "status-codes": { type: "array", items: { oneOf: [{ type: "integer" }, { type: "string" }] } },
};

function property(row: FieldRow): Json {
  return {
    ...TYPES[row.type],
    description: row.description,
    ...(row.secret ? { secret: true } : {}),
    ...(row.replaceOnChange ? { replaceOnChanges: true, willReplaceOnChanges: true } : {}),
    ...(row.default !== undefined && !row.outputOnly ? { default: row.default } : {}),
  };
}

/** The config every provider instance reads; the same keys as the dynamic resources' stack config. */
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
};

function resource(table: KindTable): Json {
  const inputs = table.fields.filter((f) => !f.outputOnly);
  return {
    description: table.description,
    properties: Object.fromEntries(table.fields.map((f) => [f.property, property(f)])),
    // Every input comes back as an output; optional ones (keyword, body, adopt) may be absent.
    required: table.fields.filter((f) => f.outputOnly || f.required || f.default !== undefined || f.property === "name").map((f) => f.property),
    inputProperties: Object.fromEntries(inputs.map((f) => [f.property, property(f)])),
    requiredInputs: inputs.filter((f) => f.required).map((f) => f.property),
  };
}

/** The package schema (Pulumi's PackageSpec) for these tables, at this version. */
export function packageSchema(tables: readonly KindTable[], version: string): Json {
  const configRequired: string[] = [];
  return {
    name: PACKAGE,
    displayName: "Uptime",
    version,
    description: "Uptime monitors, notification channels and status pages.",
    keywords: ["pulumi", "uptime", "monitoring", "category/monitoring"],
    license: "Apache-2.0",
    config: { variables: CONFIG, defaults: configRequired },
    provider: {
      description: "The uptime provider: which service and API key a stack's resources use.",
      inputProperties: CONFIG,
      properties: { baseUrl: CONFIG.baseUrl },
    },
    resources: Object.fromEntries(tables.map((t) => [`${PACKAGE}:index:${t.name}`, resource(t)])),
    language: {
      nodejs: { packageName: "@pulumi-uptime/native", respectSchemaVersion: true, dependencies: { "@pulumi/pulumi": "^3.0.0" } },
      python: { packageName: "pulumi_uptime", respectSchemaVersion: true, requires: { pulumi: ">=3.0.0,<4.0.0" }, pyproject: { enabled: true } },
      go: { importBasePath: "github.com/pulumi-uptime/sdk/go/uptime", respectSchemaVersion: true, generateResourceContainerTypes: false },
    },
  };
}
