import { normalizeAssertions } from "./assertions";
import { normalizeRetry } from "./monitor-retry";
import { normalizeSteps } from "./monitor-steps";
import { normalizeIncidentRules, normalizeSections } from "./status-page-structure";

/**
 * The shape of a kind's field table: one row per property, keyed by the property name Pulumi
 * programs use (camelCase). Each kind declares its table beside its zod schema (`MONITOR_FIELDS`
 * in monitor.ts, …); the provider, its generated schema and the README are derived from it.
 * Rows are plain data (JSON-serializable), so a schema generator can read them as they are.
 */

/** A JSON-schema-like type: enough for a Pulumi schema and the README. */
export interface FieldType {
  type: "string" | "integer" | "number" | "boolean" | "array" | "object";
  /** Allowed values (enums). */
  enum?: readonly (string | number)[];
  /** Element type of an array. */
  items?: FieldType | { oneOf: readonly FieldType[] };
  /** Value type of an object used as a map. */
  additionalProperties?: FieldType;
  /** A named object type (`Assertion`): its properties, and which of them are required. */
  ref?: string;
  properties?: Readonly<Record<string, FieldType>>;
  requiredProperties?: readonly string[];
  /** Whether the API may return `null` (an input left out). */
  nullable?: boolean;
  /** A property of a named object kept secret (the row's `secret` is for the whole property). */
  secret?: boolean;
  /** A property of a named object: one line, as a row's `description`. */
  description?: string;
}

/**
 * How two values of a field are judged equal: `set` (order and duplicates do not count; numbers
 * sort before strings), `lowercase-set` (a set compared lower-cased), `case-insensitive-keys`
 * (a map whose keys are compared lower-cased), `assertions` (a list in order, absent parts as
 * null, header names lower-cased; see assertions.ts), `steps` (a list in order, defaults filled in;
 * see monitor-steps.ts), `retry` (an object, defaults filled in; see monitor-retry.ts), `sections` and
 * `incident-rules` (a status page's structure in order, defaults filled in; see status-page-structure.ts).
 */
export type NormalForm =
  "set" | "lowercase-set" | "case-insensitive-keys" | "assertions" | "steps" | "retry" | "sections" | "incident-rules";

/** One property of a resource kind. */
export interface Field {
  /** The API's field name (snake_case); absent for fields the provider adds itself. */
  readonly api?: string;
  readonly type: FieldType;
  /** One line: the editor's hint, the README's rule, the schema's description. */
  readonly description: string;
  /** A required input. */
  readonly required?: boolean;
  /** Kept secret in state (inputs and outputs), never in refreshed inputs. */
  readonly secret?: boolean;
  /** A change replaces the object instead of updating it. */
  readonly replaceOnChange?: boolean;
  /** Set by the service; never an input. */
  readonly outputOnly?: boolean;
  /**
   * With `outputOnly`: the API accepts the field on writes, but the provider sets it itself
   * (`external_id`, the stack's mark), so the resource only outputs it.
   */
  readonly setByProvider?: boolean;
  readonly normal?: NormalForm;
  /** The value the service assumes when the input is left out (API form). */
  readonly default?: unknown;
  /** The default in words, when it is not a constant (`the resource name`). */
  readonly defaultDoc?: string;
  /**
   * The default in words when it depends on other inputs (`default` is then its usual value):
   * a schema then states no constant default, which would be wrong in the other cases.
   */
  readonly dynamicDefault?: string;
}

/** A kind's table: property name → row. */
export type FieldTable = Readonly<Record<string, Field>>;

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
  endpoint: {
    type: { type: "string" },
    outputOnly: true,
    description: "Base URL of the service that holds the object.",
  },
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
