/**
 * The plugin's functions (`Invoke`): a lookup per kind (`getMonitor`: a live object by id or by
 * name, a status page by slug; its outputs but the secret ones), and the reads the TypeScript package offers as functions
 * (provider/resources/functions.ts): a monitor's heartbeats and stats, a status page's public
 * document. Their results are typed from the same field tables and zod schemas as the rest.
 */
import type { z } from "zod";
import {
  type Field,
  type FieldType,
  HeartbeatSchema,
  HeartbeatsQuerySchema,
  RESOURCE_FIELDS,
  StatsQuerySchema,
  StatsSchema,
  StatusDocumentSchema,
} from "../api";
import type { PartialConnection } from "../provider/client/connection";
import { getMonitorHeartbeats, getMonitorStats, getStatusDocument } from "../provider/resources/functions";
import type { Failure, Props } from "../provider/kinds/values";
import { configuredStack } from "../provider/runtime";
import { LOOKUP_KEYS } from "../provider/runtime/lookup";
import type { KindName } from "../provider/kinds/registry";
import { property, requiredOutputs, type SchemaKinds, typedRows } from "./schema-rows";
import { PACKAGE, type TypeRegistry } from "./schema-types";
import { zodFieldType } from "./zod-types";

type Json = Record<string, unknown>;

/** A function's inputs and outputs as rows, like a resource's. */
interface FunctionRows {
  description: string;
  inputs: [string, Field][];
  outputs: [string, Field][];
}

const idRow = (label: string): Field => ({
  type: { type: "string" },
  required: true,
  description: `Id of the ${label}.`,
});
const CONNECTION: [string, Field] = ["connection", RESOURCE_FIELDS.connection];

/**
 * The inputs of a read of a monitor's recent past: its id, how far back (`key` of the API's query,
 * whose bounds and default the row states), and the connection.
 */
function monitorWindowInputs<K extends string>(
  query: z.ZodObject<Record<K, z.ZodType>>,
  key: K,
  unit: string,
): [string, Field][] {
  // queryInt's metadata: the query's bounds and default, as the OpenAPI document states them.
  const int = query.shape[key].meta() as { minimum: number; maximum: number; default: number };
  return [
    ["monitorId", idRow("monitor")],
    [
      key,
      { type: { type: "integer" }, description: `${unit} back, ${int.minimum}..${int.maximum}.`, default: int.default },
    ],
    CONNECTION,
  ];
}

/** The outputs a lookup returns: the resource's, without secrets (reads never reveal them). */
export function lookupOutputs(kind: SchemaKinds[string]): [string, Field][] {
  return [
    ["id", { type: { type: "string" }, description: "The object's id." }],
    ...typedRows(kind).outputs.filter(([, f]) => !f.secret),
  ];
}

/** The rows of a zod read schema's properties (its keys camelCase). */
function zodRows(schema: z.ZodType, name: string): [string, Field][] {
  const t = zodFieldType(schema, name);
  const required = new Set(t.requiredProperties);
  return Object.entries(t.properties ?? {}).map(([p, pt]) => [
    p,
    // A property the API may leave out is an optional output.
    { type: pt, description: pt.description ?? "", ...(required.has(p) ? {} : { default: null }) } satisfies Field,
  ]);
}

/** The functions beyond the lookups, with the rows of their results. */
function readFunctions(): Record<string, FunctionRows> {
  const heartbeat: FieldType = zodFieldType(HeartbeatSchema, "Heartbeat");
  return {
    getMonitorHeartbeats: {
      description: "Check results of a monitor over the last `hours`, newest first.",
      inputs: monitorWindowInputs(HeartbeatsQuerySchema, "hours", "Hours"),
      outputs: [
        [
          "heartbeats",
          {
            type: { type: "array", items: heartbeat },
            required: true,
            description: "The check results, newest first.",
          },
        ],
      ],
    },
    getMonitorStats: {
      description: "Uptime and response-time statistics of a monitor over the last `days` UTC days.",
      inputs: monitorWindowInputs(StatsQuerySchema, "days", "UTC days"),
      outputs: zodRows(StatsSchema, "Stats"),
    },
    getStatusDocument: {
      description: "The public document of a status page (names and health only; no key needed).",
      inputs: [
        ["slug", { type: { type: "string" }, required: true, description: "The status page's slug." }],
        ["baseUrl", { type: { type: "string" }, description: "Base URL of the service; default: the connection's." }],
        CONNECTION,
      ],
      outputs: zodRows(StatusDocumentSchema, "StatusDocument"),
    },
  };
}

/** Every function: `getMonitor`, `getChannel`, … and the reads. */
export function functionRows(kinds: SchemaKinds): Record<string, FunctionRows> {
  const lookups = Object.entries(kinds).map(([name, kind]): [string, FunctionRows] => {
    const key = LOOKUP_KEYS[name as KindName] ?? "name";
    const byKey = key === "slug" ? "its slug" : "its name, which must match exactly one";
    return [
      `get${name}`,
      {
        description: `Looks up an existing ${name} by id or by ${byKey}: its properties as the service holds them, secret ones left out.`,
        inputs: [
          ["id", { ...idRow(name), required: false, description: `Id of the ${name}; give either it or \`${key}\`.` }],
          [
            key,
            {
              type: { type: "string" },
              description: `The ${name}'s ${key}, exactly as written; give either it or \`id\`. No match, or more than one, is an error saying how many matched.`,
            },
          ],
          CONNECTION,
        ],
        outputs: lookupOutputs(kind),
      },
    ];
  });
  return { ...Object.fromEntries(lookups), ...readFunctions() };
}

const objectSpec = (types: TypeRegistry, owner: string, rows: [string, Field][], required: string[]): Json => ({
  properties: Object.fromEntries(rows.map(([p, f]) => [p, property(types, owner, p, f)])),
  // Pulumi's own schema form leaves out an empty `required`: the plugin serves that form.
  ...(required.length ? { required } : {}),
});

/** The schema's `functions` section. */
export function functionSpecs(kinds: SchemaKinds, types: TypeRegistry): Json {
  return Object.fromEntries(
    Object.entries(functionRows(kinds)).map(([name, f]) => {
      const owner = name.slice(3);
      const inputs = objectSpec(
        types,
        owner,
        f.inputs,
        f.inputs.filter(([, r]) => r.required).map(([p]) => p),
      );
      const outputs = objectSpec(types, owner, f.outputs, requiredOutputs(f.outputs));
      return [`${PACKAGE}:index:${name}`, { description: f.description, inputs, outputs }];
    }),
  );
}

/**
 * The check failures of a read function's arguments: each required one (`monitorId`, `slug`)
 * missing or empty, as the lookups refuse a missing `id`, before any request to the service.
 */
export function readFailures(name: string, args: Props): Failure[] {
  const inputs = readFunctions()[name]?.inputs ?? [];
  return inputs
    .filter(([p, f]) => f.required && (typeof args[p] !== "string" || args[p] === ""))
    .map(([p]) => ({ property: p, reason: `${p}: is required` }));
}

type Read = (args: Props, connection: PartialConnection | undefined) => Promise<unknown>;

/** The answers of the read functions (API form; the caller camel-cases them), by name. */
export const READS: Record<string, Read> = {
  getMonitorHeartbeats: async (a, connection) => ({
    heartbeats: await getMonitorHeartbeats(
      { monitorId: a.monitorId as string, hours: a.hours as number | undefined },
      { connection },
      configuredStack,
    ),
  }),
  getMonitorStats: (a, connection) =>
    getMonitorStats(
      { monitorId: a.monitorId as string, days: a.days as number | undefined },
      { connection },
      configuredStack,
    ),
  getStatusDocument: (a, connection) =>
    getStatusDocument(
      { slug: a.slug as string, baseUrl: a.baseUrl as string | undefined },
      { connection },
      configuredStack,
    ),
};
