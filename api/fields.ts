import { normalizeAssertions } from "./assertions";
import { normalizeRetry } from "./monitor-retry";
import { normalizeSteps } from "./monitor-steps";
import { normalizeIncidentRules, normalizeSections } from "./status-page-structure";
import { type Field, type FieldTable, type NormalForm, providerOutput } from "./field-table";

export type { Field, FieldTable, FieldType, NormalForm } from "./field-table";

/**
 * Rows every resource adds on the Pulumi side: not API fields, but inputs and outputs of each
 * resource (and of a generated schema).
 */
export const RESOURCE_FIELDS = {
  /** Id of an existing object to take over instead of creating one. */
  adopt: {
    type: { type: "string" },
    description:
      "Id of an existing object to take over instead of creating one; on create it is updated to these inputs.",
  },
  /** Another service or account than the stack's default. */
  connection: {
    type: {
      type: "object",
      ref: "Connection",
      properties: {
        baseUrl: {
          type: "string",
          description: "Base URL of the service, e.g. `https://uptime.example.com`; default `uptime:baseUrl`.",
        },
        apiKey: { type: "string", secret: true, description: "API key, `uk_…`; default `uptime:apiKey`." },
        allowInsecureHttp: {
          type: "boolean",
          description: "Allows a plain `http://` base URL to a host that is not loopback.",
        },
      },
    },
    secret: true,
    description:
      "`{ baseUrl?, apiKey?, allowInsecureHttp? }` for another account or service; defaults to `uptime:baseUrl`/`uptime:apiKey`.",
    defaultDoc: "stack config",
  },
  /** Base URL of the service that holds the object. */
  endpoint: providerOutput("Base URL of the service that holds the object."),
} as const satisfies FieldTable;

/** The value in its normal form: equal values compare equal however they were written. */
export function normalize(form: NormalForm | undefined, value: unknown): unknown {
  if (value === undefined || value === null || form === undefined) return value;
  if (form === "assertions") return normalizeAssertions(value);
  if (form === "steps") return normalizeSteps(value);
  if (form === "retry") return normalizeRetry(value);
  if (form === "sections") return normalizeSections(value);
  if (form === "incident-rules") return normalizeIncidentRules(value);
  // A value of another shape (an unknown during preview, a rule broken) is judged as it is.
  if (form === "case-insensitive-keys") {
    if (typeof value !== "object" || Array.isArray(value)) return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => [k.toLowerCase(), v] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  }
  if (!Array.isArray(value)) return value;
  const list = value as readonly (string | number)[];
  return sortedSet(form === "lowercase-set" ? list.map((v) => (typeof v === "string" ? v.toLowerCase() : v)) : list);
}

/** Sorted, de-duplicated: numbers first (numerically), then strings. */
export function sortedSet<T extends string | number>(values: readonly T[]): T[] {
  const numbers = [...new Set(values.filter((c) => typeof c === "number"))].sort(
    (a, b) => (a as number) - (b as number),
  );
  const strings = [...new Set(values.filter((c) => typeof c === "string"))].sort();
  return [...numbers, ...strings];
}

/** The rows of a table whose `api` name is set (API fields), as `[property, row]` pairs. */
export function apiRows(table: FieldTable): [string, Field & { api: string }][] {
  return Object.entries(table).filter((e): e is [string, Field & { api: string }] => e[1].api !== undefined);
}

/** The API names of the fields the service sets itself, over all the given tables. */
export function outputOnlyApiNames(...tables: FieldTable[]): string[] {
  return [
    ...new Set(
      tables.flatMap((t) =>
        apiRows(t)
          .filter(([, f]) => f.outputOnly && !f.setByProvider)
          .map(([, f]) => f.api),
      ),
    ),
  ];
}
