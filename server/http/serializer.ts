import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify/types/schema";
import { z } from "zod";

type JsonSchema = { [key: string]: unknown };

/** Keywords that only constrain values: the serializer writes what the handler returns. */
const CONSTRAINTS = new Set(["$schema", "pattern", "format", "minimum", "maximum", "const", "propertyNames", "enum"]);

/**
 * Reduces a JSON Schema to what a serializer needs. `anyOf` of plain types (`string | null`,
 * `integer | string`) becomes one `type` list: fast-json-stringify then picks the branch with a
 * `typeof` instead of running a validator for every value.
 */
export function forSerializer(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerializer);
  if (!schema || typeof schema !== "object") return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (CONSTRAINTS.has(key)) continue;
    // Property and definition maps hold schemas by name: reduce each, keep the names.
    out[key] =
      key === "properties" || key === "$defs"
        ? Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, forSerializer(v)]))
        : forSerializer(value);
  }
  const branches = out.anyOf as JsonSchema[] | undefined;
  if (branches?.every((b) => Object.keys(b).length === 1 && typeof b.type === "string")) {
    delete out.anyOf;
    out.type = [...new Set(branches.map((b) => b.type as string))];
  }
  return out;
}

/**
 * Response serializers compiled from the JSON Schema the zod schemas produce (fast-json-stringify),
 * instead of parsing every response with zod: the same shape, written without a validation pass.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) =>
  fastJson(forSerializer(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" })) as never);
