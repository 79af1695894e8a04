/**
 * The native plugin's Pulumi package schema, generated from the kinds' field tables (api/*.ts,
 * as the runtime reads them), so the plugin, its SDKs and the dynamic resources describe the same
 * properties, secrets and replace-on-change fields.
 */
import { type Field, type FieldTable, type FieldType, RESOURCE_FIELDS } from "../api";

/** The package name: resource tokens are `uptime:index:<Kind>`, config keys `uptime:<key>`. */
export const PACKAGE = "uptime";

type Json = Record<string, unknown>;

/** The resource kinds of the schema: name → description and field table. */
export type SchemaKinds = Readonly<Record<string, { description: string; table: FieldTable }>>;

/** The token of a named object type: `uptime:index:Assertion`. */
const typeToken = (ref: string) => `${PACKAGE}:index:${ref}`;

/**
 * Pulumi's type for a field type; enums stay plain strings (their values are in the description).
 * A named object (`ref`) is a reference into the schema's `types`, so SDKs get a class for it.
 */
function typeOf(t: FieldType | { oneOf: readonly FieldType[] }): Json {
  if ("oneOf" in t) return { oneOf: t.oneOf.map(typeOf) };
  if (t.ref) return { $ref: `#/types/${typeToken(t.ref)}` };
  return {
    type: t.type,
    ...(t.items ? { items: typeOf(t.items) } : {}),
    ...(t.additionalProperties ? { additionalProperties: typeOf(t.additionalProperties) } : {}),
  };
}

const isPrimitive = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

function property(row: Field): Json {
  const values = row.type.enum ? ` One of: ${row.type.enum.map((v) => `\`${v}\``).join(", ")}.` : "";
  return {
    ...typeOf(row.type),
    description: `${row.description}${values}`,
    ...(row.secret ? { secret: true } : {}),
    ...(row.replaceOnChange ? { replaceOnChanges: true, willReplaceOnChanges: true } : {}),
    ...(isPrimitive(row.default) && !row.outputOnly ? { default: row.default } : {}),
  };
}

/** Every named object type the tables use, found through arrays and maps. */
function namedTypes(t: FieldType | { oneOf: readonly FieldType[] } | undefined, out: Map<string, FieldType>): void {
  if (!t) return;
  if ("oneOf" in t) return t.oneOf.forEach((o) => namedTypes(o, out));
  if (t.ref) out.set(t.ref, t);
  namedTypes(t.items, out);
  namedTypes(t.additionalProperties, out);
  for (const p of Object.values(t.properties ?? {})) namedTypes(p, out);
}

/** The schema's `types`: one object type per named object, its properties typed, enums listed. */
function objectTypes(kinds: SchemaKinds): Json {
  const found = new Map<string, FieldType>();
  for (const k of Object.values(kinds)) for (const row of Object.values(k.table)) namedTypes(row.type, found);
  return Object.fromEntries(
    [...found].map(([ref, t]) => [
      typeToken(ref),
      {
        type: "object",
        properties: Object.fromEntries(
          Object.entries(t.properties ?? {}).map(([p, pt]) => [p, { ...typeOf(pt), ...(pt.enum ? { description: `One of: ${pt.enum.map((v) => `\`${v}\``).join(", ")}.` } : {}) }]),
        ),
        required: t.requiredProperties ?? [],
      },
    ]),
  );
}

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

/** A resource's rows as its schema reads them: its table plus `adopt`, `connection`, `endpoint`. */
export function resourceRows(table: FieldTable): { inputs: [string, Field][]; outputs: [string, Field][] } {
  const rows: [string, Field][] = Object.entries({ ...table, ...RESOURCE_FIELDS });
  return {
    inputs: rows.filter(([, f]) => !f.outputOnly),
    outputs: rows.filter(([p]) => p !== "adopt" && p !== "connection"),
  };
}

function resource(description: string, table: FieldTable): Json {
  const { inputs, outputs } = resourceRows(table);
  return {
    description,
    properties: Object.fromEntries(outputs.map(([p, f]) => [p, property(f)])),
    // Outputs the service always returns; optional inputs (keyword, body, description) may be absent.
    required: outputs.filter(([, f]) => f.outputOnly || f.required || f.default !== undefined).map(([p]) => p),
    inputProperties: Object.fromEntries(inputs.map(([p, f]) => [p, property(f)])),
    requiredInputs: inputs.filter(([, f]) => f.required).map(([p]) => p),
  };
}

/** The package schema (Pulumi's PackageSpec) for these kinds, at this version. */
export function packageSchema(kinds: SchemaKinds, version: string): Json {
  return {
    name: PACKAGE,
    displayName: "Uptime",
    version,
    description: "Uptime monitors, notification channels and status pages.",
    keywords: ["pulumi", "uptime", "monitoring", "category/monitoring"],
    license: "Apache-2.0",
    // Where `pulumi plugin install` finds pulumi-resource-uptime-v<version>-<os>-<arch>.tar.gz.
    pluginDownloadURL: "github://api.github.com/pulumi-uptime/pulumi-uptime",
    config: { variables: CONFIG },
    provider: {
      description: "The uptime provider: which service and API key a stack's resources use.",
      inputProperties: CONFIG,
      properties: { baseUrl: CONFIG.baseUrl },
    },
    types: objectTypes(kinds),
    resources: Object.fromEntries(
      Object.entries(kinds).map(([name, k]) => [`${PACKAGE}:index:${name}`, resource(k.description, k.table)]),
    ),
    language: {
      nodejs: { packageName: "@pulumi-uptime/native", respectSchemaVersion: true, dependencies: { "@pulumi/pulumi": "^3.0.0" } },
      python: { packageName: "pulumi_uptime", respectSchemaVersion: true, requires: { pulumi: ">=3.0.0,<4.0.0" }, pyproject: { enabled: true } },
      go: { importBasePath: "github.com/pulumi-uptime/pulumi-uptime/sdk/go/uptime", respectSchemaVersion: true, generateResourceContainerTypes: false },
    },
  };
}
