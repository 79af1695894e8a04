import { describe, expect, it } from "vitest";
import { packageSchema } from "../../plugin/schema";
import { KIND_TABLES } from "../../plugin/tables";
import { KINDS } from "../../provider/runtime";

type Prop = { type?: string; secret?: boolean; replaceOnChanges?: boolean; default?: unknown; description?: string };
type Resource = { properties: Record<string, Prop>; inputProperties: Record<string, Prop>; requiredInputs: string[] };

const schema = packageSchema(KIND_TABLES, "1.2.3") as {
  version: string;
  config: { variables: Record<string, Prop & { defaultInfo?: { environment: string[] } }> };
  resources: Record<string, Resource>;
};

describe("the native plugin's schema is its field tables", () => {
  it("has one resource per table and per kind the runtime serves", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(KIND_TABLES.map((t) => `uptime:index:${t.name}`).sort());
    expect(KIND_TABLES.map((t) => t.name).sort()).toEqual(Object.keys(KINDS).sort());
    expect(schema.version).toBe("1.2.3");
  });

  for (const table of KIND_TABLES) {
    describe(table.name, () => {
      const resource = schema.resources[`uptime:index:${table.name}`] as Resource;

      it("has exactly the table's properties as outputs, and its non-output-only ones as inputs", () => {
        expect(Object.keys(resource.properties).sort()).toEqual(table.fields.map((f) => f.property).sort());
        expect(Object.keys(resource.inputProperties).sort()).toEqual(
          table.fields.filter((f) => !f.outputOnly).map((f) => f.property).sort(),
        );
        expect(resource.requiredInputs.sort()).toEqual(table.fields.filter((f) => f.required).map((f) => f.property).sort());
      });

      it("carries each row's secret, replace-on-change, default and description", () => {
        for (const row of table.fields) {
          for (const prop of [resource.properties[row.property], resource.inputProperties[row.property]]) {
            if (!prop) continue;
            expect(Boolean(prop.secret), `${row.property} secret`).toBe(Boolean(row.secret));
            expect(Boolean(prop.replaceOnChanges), `${row.property} replaceOnChanges`).toBe(Boolean(row.replaceOnChange));
            expect(prop.description).toBe(row.description);
            if (!row.outputOnly) expect(prop.default).toBe(row.default);
          }
        }
      });

      it("replaces on the same properties as the kind's runtime", () => {
        const kind = KINDS[table.name as keyof typeof KINDS];
        expect(table.fields.filter((f) => f.replaceOnChange).map((f) => f.property)).toEqual([...kind.replaceOnChange]);
      });
    });
  }

  it("reads the stack config the dynamic resources read, with environment defaults, the key secret", () => {
    expect(schema.config.variables).toMatchObject({
      baseUrl: { type: "string", defaultInfo: { environment: ["UPTIME_API_URL"] } },
      apiKey: { type: "string", secret: true, defaultInfo: { environment: ["UPTIME_API_KEY"] } },
    });
  });
});
