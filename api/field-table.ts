/**
 * The shape of a kind's field table: one row per property, keyed by the property name Pulumi
 * programs use (camelCase). Each kind declares its table beside its zod schema (`MONITOR_FIELDS`
 * in monitor.ts, …); the provider, its generated schema and the README are derived from it.
 * Rows are plain data (JSON-serializable), so a schema generator can read them as they are; the
 * functions at the end write the rows of the common shapes. This module imports nothing, so
 * importing them does not change the order in which the schemas' modules load (and register
 * their ids: the order of the OpenAPI document's components).
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

/** The type of a field whose value is one string, number or boolean. */
type ScalarType = "string" | "integer" | "boolean";

/** The field-table row of an optional input: `fallback` unless it is set. */
export function optionalField<
  const Api extends string,
  const T extends ScalarType,
  const D extends string,
  const V extends string | number | boolean,
>(api: Api, type: T, description: D, fallback: V) {
  return { api, type: { type }, description, default: fallback } as const;
}

/** The field-table row of an optional input that is none (`null`) unless it is set. */
export function nullableField<const Api extends string, const T extends ScalarType, const D extends string>(
  api: Api,
  type: T,
  description: D,
) {
  return { api, type: { type, nullable: true }, description, default: null } as const;
}

/** The field-table row of an input every object must have. */
export function requiredField<const Api extends string, const T extends ScalarType, const D extends string>(
  api: Api,
  type: T,
  description: D,
) {
  return { api, type: { type }, required: true, description } as const;
}

/** The field-table row of an output the service sets. */
export function outputField<const Api extends string, const T extends ScalarType, const D extends string>(
  api: Api,
  type: T,
  description: D,
) {
  return { api, type: { type }, outputOnly: true, description } as const;
}

/** The field-table row of a string output the provider adds itself (no API field). */
export function providerOutput<const D extends string>(description: D) {
  return { type: { type: "string" }, outputOnly: true, description } as const;
}

/**
 * A named object type (`ref`) of a field: its properties, and which of them an object must have
 * (each one of its properties, which the compiler checks).
 */
export function objectType<
  const Ref extends string,
  const D extends string,
  const P extends Readonly<Record<string, FieldType>>,
  const R extends readonly (keyof P & string)[],
>(ref: Ref, description: D, properties: P, requiredProperties: R) {
  return { type: "object", ref, description, properties, requiredProperties } as const;
}
