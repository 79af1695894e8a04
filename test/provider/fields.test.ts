import type * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  CHANNEL_FIELDS,
  ChannelSchema,
  CreateChannelSchema,
  CreateMaintenanceWindowSchema,
  CreateMonitorSchema,
  CreateStatusPageSchema,
  type FieldTable,
  MAINTENANCE_WINDOW_FIELDS,
  MaintenanceWindowSchema,
  MONITOR_FIELDS,
  MONITOR_TYPES,
  MonitorSchema,
  READ_ONLY_FIELDS,
  STATUS_PAGE_FIELDS,
  StatusPageSchema,
  toMonitorSpec,
} from "../../api";
import type { Channel, ChannelArgs, Monitor, MonitorArgs, StatusPage, StatusPageArgs } from "../../provider/index";
import { outputPlaceholders, secretProperties } from "../../provider/kinds/fields";
import { UNKNOWN } from "../../provider/kinds/values";
import { KINDS } from "../../provider/kinds/registry";
import { generatedReadme, generatedTypesReadme } from "../../scripts/readme-tables";

type Json = Record<string, unknown>;

/** A zod rule's JSON schema reduced to what a table row declares (type, enum, items, nullable, named objects). */
function simplify(js: Json, defs: Json = (js.$defs as Json | undefined) ?? {}): Json {
  const ref = typeof js.$ref === "string" ? js.$ref.replace("#/$defs/", "") : undefined;
  if (ref) return { ...simplify(defs[ref] as Json, defs), ref };
  const anyOf = js.anyOf as Json[] | undefined;
  if (anyOf) {
    const values = anyOf.filter((s) => s.type !== "null");
    const nullable = values.length < anyOf.length ? { nullable: true } : {};
    return values.length === 1
      ? { ...simplify(values[0] as Json, defs), ...nullable }
      : { oneOf: values.map((v) => simplify(v, defs)), ...nullable };
  }
  if (Array.isArray(js.type)) {
    const types = (js.type as string[]).filter((t) => t !== "null");
    return {
      ...simplify({ ...js, type: types.length === 1 ? types[0] : types }, defs),
      ...(types.length < js.type.length ? { nullable: true } : {}),
    };
  }
  const out: Json = { type: js.type };
  if (js.enum) out.enum = js.enum;
  if (js.items) out.items = simplify(js.items as Json, defs);
  if (js.additionalProperties && typeof js.additionalProperties === "object")
    out.additionalProperties = simplify(js.additionalProperties as Json, defs);
  if (js.properties) {
    out.properties = Object.fromEntries(
      Object.entries(js.properties as Json).map(([k, v]) => [k, simplify(v as Json, defs)]),
    );
    out.requiredProperties = js.required;
  }
  return out;
}
const typeOf = (rule: z.ZodType) => simplify(z.toJSONSchema(rule, { io: "input", unrepresentable: "any" }) as Json);
/** A type without the words that document it (a named object's and its parts' descriptions). */
const undocumented = (t: unknown): Json =>
  JSON.parse(
    JSON.stringify(t, (key, value: unknown) =>
      key === "description" && typeof value === "string" ? undefined : value,
    ),
  ) as Json;
/** A type without its object names and required parts (reads return every part). */
const unnamed = (t: Json): Json =>
  JSON.parse(
    JSON.stringify(t, (key, value: unknown) =>
      key === "ref" || key === "requiredProperties" || (key === "description" && typeof value === "string")
        ? undefined
        : value,
    ),
  ) as Json;
const apiRows = (t: FieldTable) => Object.entries(t).filter(([, f]) => f.api !== undefined);
/** The fields the API accepts on writes (the provider's own `external_id` included). */
const writable = (t: FieldTable) => apiRows(t).filter(([, f]) => !f.outputOnly || f.setByProvider);

const KINDS_UNDER_TEST = [
  {
    name: "Monitor",
    table: MONITOR_FIELDS as FieldTable,
    create: CreateMonitorSchema.shape,
    read: MonitorSchema.shape,
    typed: true,
  },
  {
    name: "Channel",
    table: CHANNEL_FIELDS,
    create: CreateChannelSchema.options[0].shape,
    read: ChannelSchema.shape,
    typed: false,
  },
  {
    name: "StatusPage",
    table: STATUS_PAGE_FIELDS,
    create: CreateStatusPageSchema.shape,
    read: StatusPageSchema.shape,
    typed: true,
  },
  {
    name: "MaintenanceWindow",
    table: MAINTENANCE_WINDOW_FIELDS,
    create: CreateMaintenanceWindowSchema.shape,
    read: MaintenanceWindowSchema.shape,
    typed: true,
  },
] as const;

describe("field tables", () => {
  for (const k of KINDS_UNDER_TEST) {
    it(`${k.name}: the table's API fields are exactly the schema's, with the same types and required fields`, () => {
      const shape = k.create as Record<string, z.ZodType>;
      expect(
        writable(k.table)
          .map(([, f]) => f.api)
          .sort(),
      ).toEqual(Object.keys(shape).sort());
      // A status page's password is write-only: reads say `password_set` instead.
      const writeOnly = k.name === "StatusPage" ? ["password"] : [];
      expect(
        apiRows(k.table)
          .map(([, f]) => f.api)
          .filter((f) => !writeOnly.includes(f as string))
          .sort(),
      ).toEqual(
        Object.keys(k.read)
          .filter((f) => f !== "id")
          .sort(),
      );
      for (const [prop, f] of writable(k.table)) {
        const rule = shape[f.api as string] as z.ZodType;
        // An input the API requires is required in Pulumi too, unless the resource supplies it.
        expect(!rule.safeParse(undefined).success, prop).toBe(f.required === true || f.defaultDoc !== undefined);
        if (k.typed) expect(undocumented(f.type), prop).toEqual(typeOf(rule));
      }
      for (const [prop, f] of apiRows(k.table).filter(([, f]) => !writeOnly.includes(f.api as string))) {
        // Reads return every part of a named object (null when absent): the row's type is the input's.
        const read = typeOf((k.read as Record<string, z.ZodType>)[f.api as string] as z.ZodType);
        expect(unnamed(f.type as unknown as Json), prop).toEqual(unnamed(read));
      }
    });
  }

  it("the API's read-only fields are the tables' output-only fields", () => {
    const outputOnly = KINDS_UNDER_TEST.flatMap((k) =>
      apiRows(k.table)
        .filter(([, f]) => f.outputOnly && !f.setByProvider)
        .map(([, f]) => f.api),
    );
    expect([...READ_ONLY_FIELDS].sort()).toEqual([...new Set(["id", ...outputOnly])].sort());
  });

  it("secret inputs and outputs come from the table, and refreshed inputs never hold a secret", () => {
    expect(secretProperties(MONITOR_FIELDS)).toEqual([
      "headers",
      "body",
      "pushUrl",
      "variables",
      "writtenSecrets",
      "connection",
    ]);
    expect(secretProperties(MAINTENANCE_WINDOW_FIELDS)).toEqual(["connection"]);
    expect(secretProperties(CHANNEL_FIELDS)).toEqual(["config", "connection"]);
    expect(secretProperties(STATUS_PAGE_FIELDS)).toEqual(["password", "connection"]);
    // Every output the Monitor type declares is registered, so an unset input is an Output too.
    expect(Object.keys(outputPlaceholders(MONITOR_FIELDS)).sort()).toEqual(
      [...Object.keys(MONITOR_FIELDS), "endpoint"].sort(),
    );
    for (const kind of Object.values(KINDS)) {
      const live = Object.fromEntries(apiRows(kind.fields.table).map(([, f]) => [f.api, "x"]));
      const refreshed = Object.keys(kind.refreshedInputs({ id: "x", ...live } as never));
      const secrets = secretProperties(kind.fields.table);
      expect(
        refreshed.filter((p) => secrets.includes(p)),
        kind.label,
      ).toEqual([]);
      expect(refreshed.length, kind.label).toBeGreaterThan(1);
    }
  });

  it("refreshed inputs are what a program would declare: optional fields at their default are left out", () => {
    const spec = toMonitorSpec({
      type: "http",
      url: "https://x.example",
      name: "api",
      interval_sec: 900,
      method: "HEAD",
      expected_status_codes: ["3xx", "2xx"],
      tags: [],
    } as never);
    const live = { id: "mon_1", status: "paused", health: "up", ...spec };
    const refreshed = KINDS.Monitor.fields.withoutDefaults(KINDS.Monitor.refreshedInputs(live as never));
    // The same codes in another order are the default (a set); `paused` differs from its default.
    expect(refreshed).toEqual({
      type: "http",
      url: "https://x.example",
      name: "api",
      intervalSec: 900,
      method: "HEAD",
      paused: true,
    });
  });

  it("a whole list or map unknown at preview is compared as it is, without an error", () => {
    const inputs = {
      type: "http",
      url: "https://x.example",
      intervalSec: 60,
      tags: UNKNOWN,
      headers: UNKNOWN,
      channelIds: UNKNOWN,
    };
    expect(KINDS.Monitor.desired(inputs, undefined)).toMatchObject({
      tags: UNKNOWN,
      headers: UNKNOWN,
      channel_ids: UNKNOWN,
    });
    expect(KINDS.StatusPage.desired({ slug: "s", title: "t", monitorIds: UNKNOWN }, undefined)).toMatchObject({
      monitor_ids: UNKNOWN,
    });
  });

  it("the resource tables of docs/reference/typescript.md are the ones the field tables generate (npm run readme)", () => {
    const readme = readFileSync(join(__dirname, "..", "..", "docs", "reference", "typescript.md"), "utf8");
    expect(readme).toBe(generatedReadme(readme));
    expect(readme).toContain("| `keyword` |");
  });

  it("the README's table of monitor types lists every type, each with properties the field table has (npm run readme)", () => {
    const readme = readFileSync(join(__dirname, "..", "..", "README.md"), "utf8");
    expect(readme).toBe(generatedTypesReadme(readme));
    const block = readme.split("<!-- monitor-types -->")[1]?.split("<!-- /monitor-types -->")[0] ?? "";
    const rows = [...block.matchAll(/^\| `([a-z]+)` \| .*? \| (.*?) \| [^|]* \|$/gm)].filter((r) => r[1] !== "type");
    expect(rows.map((r) => r[1])).toEqual([...MONITOR_TYPES]);
    for (const [, type, fields] of rows) {
      for (const field of [...(fields ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1] as string))
        expect(Object.keys(MONITOR_FIELDS), `${type}: ${field}`).toContain(field);
    }
  });

  it("the resources' Args and outputs are the table's properties", () => {
    type Inputs<T> =
      { [K in keyof T]: T[K] extends { outputOnly: true } ? never : K }[keyof T] | "adopt" | "connection";
    // `expectFailing` steers the dry run of `uptime:testChecks`; it is no field of the monitor.
    expectTypeOf<keyof MonitorArgs>().toEqualTypeOf<Inputs<typeof MONITOR_FIELDS> | "expectFailing">();
    expectTypeOf<keyof StatusPageArgs>().toEqualTypeOf<Inputs<typeof STATUS_PAGE_FIELDS>>();
    expectTypeOf<keyof ChannelArgs>().toEqualTypeOf<Inputs<typeof CHANNEL_FIELDS>>();
    type Outputs<T> = Record<keyof T | "endpoint", pulumi.Output<unknown>>;
    expectTypeOf<Monitor>().toExtend<Outputs<typeof MONITOR_FIELDS>>();
    expectTypeOf<Channel>().toExtend<Outputs<typeof CHANNEL_FIELDS>>();
    expectTypeOf<StatusPage>().toExtend<Outputs<typeof STATUS_PAGE_FIELDS>>();
    expectTypeOf<MonitorArgs["intervalSec"]>().toEqualTypeOf<pulumi.Input<number>>();
    expectTypeOf<NonNullable<MonitorArgs["tags"]>>().toEqualTypeOf<pulumi.Input<pulumi.Input<string>[]>>();
    expectTypeOf<NonNullable<MonitorArgs["headers"]>>().toEqualTypeOf<
      pulumi.Input<Record<string, pulumi.Input<string>>>
    >();
    expectTypeOf<Monitor["health"]>().toEqualTypeOf<pulumi.Output<"pending" | "up" | "degraded" | "down">>();
    // A property of some monitor types only is `undefined` for the others (their state leaves it out).
    expectTypeOf<Monitor["body"]>().toEqualTypeOf<pulumi.Output<string | null | undefined>>();
    expectTypeOf<Monitor["graceSec"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<Monitor["url"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<Monitor["sslExpiryDays"]>().toEqualTypeOf<pulumi.Output<number | null | undefined>>();
    expectTypeOf<Monitor["intervalSec"]>().toEqualTypeOf<pulumi.Output<number>>();
    // Assertions are a union discriminated by `source`: a comparison another source takes is a type error.
    type AssertionInput = pulumi.Unwrap<NonNullable<MonitorArgs["assertions"]>>[number];
    expectTypeOf<{
      source: "json_body";
      property: string;
      comparison: "equals";
      target: string;
    }>().toExtend<AssertionInput>();
    expectTypeOf<{ source: "text_body"; comparison: "greater_than"; target: string }>().not.toExtend<AssertionInput>();
    expectTypeOf<{ source: "headers"; comparison: "equals"; target: string }>().not.toExtend<AssertionInput>();
  });
});
