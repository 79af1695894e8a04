/**
 * The schema's type registry: Pulumi types for the field tables' types (api/fields.ts). Enums
 * become enum types and named objects (`ref`) object types in the schema's `types`, so each SDK
 * gets a class or a constant for them; everything else stays a plain Pulumi type.
 */
import type { FieldType } from "../api";

type Json = Record<string, unknown>;

/** The package name: tokens are `uptime:index:<Name>`. */
export const PACKAGE = "uptime";

/** The token of a named type: `uptime:index:Assertion`. */
export const typeToken = (name: string): string => `${PACKAGE}:index:${name}`;

/** `dns_record_type`, `dnsRecordType`, `json_body` → `DnsRecordType`, `JsonBody`; `GET` stays. */
export const pascal = (s: string): string =>
  s
    .split(/[_\-\s.]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

/** An array's property names its elements: `events` → `Event`. */
const singular = (s: string): string => (s.endsWith("s") && !s.endsWith("ss") ? s.slice(0, -1) : s);

/** The name of the enum type of `owner`'s property `prop`: `MonitorMethod`, `AssertionSource`. */
export const enumName = (owner: string, prop: string): string => `${owner}${pascal(prop)}`;

/** The types a schema refers to, by token, collected while its properties are typed. */
export class TypeRegistry {
  readonly types = new Map<string, Json>();

  /** The Pulumi type of `t`, the type of `owner`'s property `prop` (which names its enum). */
  typeOf(t: FieldType | { oneOf: readonly FieldType[] }, owner: string, prop: string): Json {
    if ("oneOf" in t) return { oneOf: t.oneOf.map((o) => this.typeOf(o, owner, prop)) };
    if (t.enum) return this.ref(enumName(owner, prop), this.enumType(t, `Allowed values of \`${prop}\`.`));
    // A map by key (`additionalProperties`) is a map in every language, even when it has a name.
    if (t.type === "object" && t.additionalProperties) {
      return { type: "object", additionalProperties: this.typeOf(t.additionalProperties, owner, prop) };
    }
    if (t.ref) return this.ref(t.ref, this.objectType(t));
    if (t.type === "array" && t.items) return { type: "array", items: this.typeOf(t.items, owner, singular(prop)) };
    return { type: t.type };
  }

  /** A property spec: its type, description and secret flag. */
  property(t: FieldType, owner: string, prop: string, description: string | undefined): Json {
    return {
      ...this.typeOf(t, owner, prop),
      ...(description ? { description } : {}),
      ...(t.secret ? { secret: true } : {}),
    };
  }

  /** The schema's `types` section, sorted by token. */
  section(): Json {
    return Object.fromEntries([...this.types].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  private ref(name: string, spec: Json): Json {
    const token = typeToken(name);
    const known = this.types.get(token);
    // Two fields may share an enum only if they allow the same values.
    if (known && JSON.stringify(known) !== JSON.stringify(spec))
      throw new Error(`two different types are named ${name}`);
    this.types.set(token, spec);
    return { $ref: `#/types/${token}` };
  }

  private enumType(t: FieldType, description: string): Json {
    return {
      type: t.enum!.every((v) => typeof v === "number") ? "integer" : "string",
      description,
      enum: t.enum!.map((value) => ({ name: pascal(String(value)), value })),
    };
  }

  private objectType(t: FieldType): Json {
    const name = t.ref as string;
    const props = Object.entries(t.properties ?? {});
    return {
      type: "object",
      ...(t.description ? { description: t.description } : {}),
      // Pulumi's own schema form leaves out empty `properties` and `required`: the plugin serves that form.
      ...(props.length
        ? { properties: Object.fromEntries(props.map(([p, pt]) => [p, this.property(pt, name, p, pt.description)])) }
        : {}),
      // Pulumi's own schema form leaves out an empty `required`: the plugin serves that form.
      ...(t.requiredProperties?.length ? { required: [...t.requiredProperties] } : {}),
    };
  }
}
