import { z } from "zod";
import type { ErrorDetail } from "./common";
import { nullableField } from "./field-table";

/**
 * A monitor field that one type has of its own: a string, null on every other type and by default
 * (`script` of browser monitors, `grpc_service` of gRPC ones), declared once with every form the
 * API, the store and the provider read it in.
 */
export function ownStringField<const Api extends string, const Property extends string, const D extends string>(spec: {
  /** Its name in the API (snake_case). */
  api: Api;
  /** Its property's name in Pulumi programs (camelCase). */
  property: Property;
  /** The monitor type that has it. */
  type: string;
  /** The schema of a value written (null is always allowed). */
  write: z.ZodString;
  /** The field-table row's description. */
  description: D;
}) {
  const { api, property, type } = spec;
  return {
    /** The write schema (api/monitor-fields.ts spreads it into the monitor's). */
    fields: { [api]: spec.write.nullable() } as Record<Api, z.ZodNullable<z.ZodString>>,
    /** Its default (monitors stored before it read so too). */
    defaults: Object.freeze({ [api]: null }) as Readonly<Record<Api, string | null>>,
    /** The read schema (absent in answers of servers from before it). */
    read: { [api]: z.string().nullable().optional() } as Record<Api, z.ZodOptional<z.ZodNullable<z.ZodString>>>,
    /** The field-table row (api/monitor-fields.ts spreads it into `MONITOR_FIELDS`). */
    rows: { [property]: nullableField(api, "string", spec.description) } as Record<
      Property,
      ReturnType<typeof nullableField<Api, "string", D>>
    >,
    /** The field set on a monitor of another type (each type's own rules are in api/monitor-types/). */
    violations(m: Readonly<Record<Api, string | null>> & { type: string }): ErrorDetail[] {
      return m.type !== type && m[api] !== null
        ? [{ field: api, message: `is only allowed for ${type} monitors, not ${m.type}` }]
        : [];
    },
  };
}

/** A monitor's value of an own field (`MonitorBrowserSpec`, …). */
export type OwnFieldValue<F extends { defaults: object }> = { -readonly [K in keyof F["defaults"]]: F["defaults"][K] };
