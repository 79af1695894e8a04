/**
 * The rows of the package schema: a resource kind's fields as Pulumi properties (type, default,
 * secret, replace-on-change), shared by the resources, the functions and the monitor group.
 */
import { type Field, type FieldTable, RESOURCE_FIELDS } from "../api";
import type { TypeRegistry } from "./schema-types";

type Json = Record<string, unknown>;

/**
 * The resource kinds of the schema: name → description, field table, and the properties the
 * plugin types otherwise than their row (a channel's per-type `config`, see channel-config.ts),
 * and the outputs its state may leave out (`Kind.stateLeavesOut`).
 */
export type SchemaKinds = Readonly<
  Record<
    string,
    {
      description: string;
      table: FieldTable;
      types?: Readonly<Record<string, Field["type"]>>;
      leavesOut?: readonly string[];
    }
  >
>;

const isPrimitive = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/**
 * The default a schema states: a constant one, never one that depends on other inputs (a
 * `defaultDoc` says how) nor `null` (none).
 */
export const schemaDefault = (row: Field): unknown =>
  row.outputOnly || row.defaultDoc !== undefined || row.dynamicDefault !== undefined || !isPrimitive(row.default)
    ? undefined
    : row.default;

/** Whether the service always returns a value: not nullable, not defaulting to `null`. */
export const alwaysSet = (row: Field): boolean => !row.type.nullable && row.default !== null;

/** The schema's description of a row: its rule, and a default in words. */
export const describe = (row: Field): string => {
  const words = row.dynamicDefault ?? row.defaultDoc;
  return `${row.description}${words ? ` Default: ${words}.` : ""}`;
};

/** A property of resource `owner` (or of a function's inputs/outputs). */
export function property(types: TypeRegistry, owner: string, prop: string, row: Field): Json {
  const d = schemaDefault(row);
  const description = describe(row);
  return {
    ...types.typeOf(row.type, owner, prop),
    ...(description ? { description } : {}),
    ...(row.secret ? { secret: true } : {}),
    ...(row.replaceOnChange ? { replaceOnChanges: true, willReplaceOnChanges: true } : {}),
    ...(d !== undefined ? { default: d } : {}),
  };
}

/** A resource's rows as its schema reads them: its table plus `adopt`, `connection`, `endpoint`. */
export function resourceRows(table: FieldTable): { inputs: [string, Field][]; outputs: [string, Field][] } {
  const rows: [string, Field][] = Object.entries({ ...table, ...RESOURCE_FIELDS });
  return {
    inputs: rows.filter(([, f]) => !f.outputOnly),
    outputs: rows.filter(([p]) => p !== "adopt" && p !== "connection"),
  };
}

/** The rows of a kind as the plugin types them (its `types` replacing the rows' own). */
export function typedRows(kind: SchemaKinds[string]): { inputs: [string, Field][]; outputs: [string, Field][] } {
  const retype = ([p, f]: [string, Field]): [string, Field] => [p, kind.types?.[p] ? { ...f, type: kind.types[p] } : f];
  const { inputs, outputs } = resourceRows(kind.table);
  return { inputs: inputs.map(retype), outputs: outputs.map(retype) };
}

/**
 * Outputs the service always sets (required outputs; `adopt` only echoes an input). Optional
 * ones may be absent or null: a nullable field, one defaulting to none.
 */
export const requiredOutputs = (outputs: [string, Field][]): string[] =>
  outputs.filter(([p, f]) => p !== "adopt" && alwaysSet(f)).map(([p]) => p);
