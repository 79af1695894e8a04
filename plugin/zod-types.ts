/**
 * Field types (api/fields.ts) of the API's read schemas, for the functions' results: the zod
 * schema as JSON Schema (zod's own export), its objects named (`meta({ id })`, else owner and
 * property: `StatsDaily`), its keys camelCase as Pulumi programs read them.
 */
import { z } from "zod";
import type { FieldType } from "../api";
import { toCamel } from "../provider/kinds/values";
import { RESULT_DOCS } from "./result-docs";
import { pascal } from "./schema-types";

interface Json {
  type?: string | string[];
  $ref?: string;
  anyOf?: Json[];
  enum?: (string | number)[];
  items?: Json;
  properties?: Record<string, Json>;
  additionalProperties?: Json | boolean;
  required?: string[];
  description?: string;
}

/** One JSON Schema node as a field type; `name` names it if it is an object. */
function convert(node: Json, defs: Record<string, Json>, name: string): FieldType {
  if (node.$ref) {
    const ref = node.$ref.replace("#/$defs/", "");
    return convert(defs[ref] as Json, defs, ref);
  }
  const variants = node.anyOf?.filter((v) => v.type !== "null");
  if (variants?.length === 1) return { ...convert(variants[0] as Json, defs, name), nullable: true };
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const nullable = types.includes("null") ? { nullable: true } : {};
  const type = types.find((t) => t !== "null") as FieldType["type"];
  const description = node.description ? { description: node.description } : {};
  // The elements of `monitors` are each a `…Monitor`.
  if (type === "array")
    return { type, items: convert(node.items as Json, defs, name.replace(/s$/, "")), ...nullable, ...description };
  if (type !== "object") return { type, ...(node.enum ? { enum: node.enum } : {}), ...nullable, ...description };
  // A record (a map by key): a map, not a named object type.
  if (!node.properties && typeof node.additionalProperties === "object") {
    return { type, additionalProperties: convert(node.additionalProperties, defs, name), ...nullable, ...description };
  }
  const properties = Object.fromEntries(
    Object.entries(node.properties ?? {}).map(([k, p]) => {
      const t = convert(p, defs, `${name}${pascal(k)}`);
      const doc = t.description ?? RESULT_DOCS[`${name}.${toCamel(k)}`];
      return [toCamel(k), doc ? { ...t, description: doc } : t];
    }),
  );
  return {
    type,
    ref: name,
    properties,
    requiredProperties: (node.required ?? []).map(toCamel),
    ...nullable,
    ...description,
  };
}

/** The field type of a zod read schema, named `name` unless the schema names itself. */
export function zodFieldType(schema: z.ZodType, name: string): FieldType {
  const json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Json & {
    $defs?: Record<string, Json>;
  };
  return convert(json, json.$defs ?? {}, name);
}

/** API keys camelCase at every depth: a function's result as its schema types it. */
export function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [toCamel(k), camelKeys(v)]));
  return value;
}
