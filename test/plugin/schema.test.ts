import { describe, expect, it } from "vitest";
import { PLUGIN_KINDS } from "../../plugin/kinds";
import { packageSchema, resourceRows } from "../../plugin/schema";
import { KINDS } from "../../provider/kinds/registry";

type Prop = { type?: string; secret?: boolean; replaceOnChanges?: boolean; default?: unknown; description?: string };
type Resource = { properties: Record<string, Prop>; inputProperties: Record<string, Prop>; requiredInputs: string[] };

const schema = packageSchema(PLUGIN_KINDS, "1.2.3") as {
  version: string;
  config: { variables: Record<string, Prop & { defaultInfo?: { environment: string[] } }> };
  resources: Record<string, Resource>;
};

describe("the native plugin's schema is the kinds' field tables", () => {
  it("has one resource per kind the runtime serves, at the plugin's version", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(Object.keys(KINDS).map((k) => `uptime:index:${k}`).sort());
    expect(schema.version).toBe("1.2.3");
  });

  for (const [name, kind] of Object.entries(KINDS)) {
    describe(name, () => {
      const resource = schema.resources[`uptime:index:${name}`] as Resource;
      const table = kind.fields.table;
      const { inputs, outputs } = resourceRows(table);

      it("is generated from the very table the runtime reads", () => {
        expect(PLUGIN_KINDS[name]?.table).toBe(table);
      });

      it("has every row of the table: writable ones as inputs, all but adopt/connection as outputs", () => {
        for (const [prop, row] of Object.entries(table)) {
          expect(resource.properties[prop], prop).toBeDefined();
          expect(resource.inputProperties[prop] !== undefined, `${prop} is an input`).toBe(!row.outputOnly);
        }
        expect(Object.keys(resource.inputProperties).sort()).toEqual(inputs.map(([p]) => p).sort());
        expect(Object.keys(resource.properties).sort()).toEqual(outputs.map(([p]) => p).sort());
        expect(resource.requiredInputs.sort()).toEqual(inputs.filter(([, f]) => f.required).map(([p]) => p).sort());
      });

      it("carries each row's secret, replace-on-change and description", () => {
        for (const [prop, row] of [...inputs, ...outputs]) {
          for (const p of [resource.properties[prop], resource.inputProperties[prop]]) {
            if (!p) continue;
            expect(Boolean(p.secret), `${prop} secret`).toBe(Boolean(row.secret));
            expect(Boolean(p.replaceOnChanges), `${prop} replaceOnChanges`).toBe(Boolean(row.replaceOnChange));
            expect(p.description?.startsWith(row.description), `${prop} description`).toBe(true);
          }
        }
      });

      it("replaces on the same properties as the runtime's diff", () => {
        const replacing = Object.entries(resource.inputProperties).filter(([, p]) => p.replaceOnChanges).map(([k]) => k);
        expect(replacing.sort()).toEqual(kind.fields.replaceOnChange().sort());
      });
    });
  }

  it("types a monitor's assertions as a list of objects, so SDKs get a class with typed properties", () => {
    const types = (schema as unknown as { types: Record<string, { type: string; properties: Record<string, { type?: string }>; required: string[] }> }).types;
    const monitor = schema.resources["uptime:index:Monitor"] as Resource;
    expect(monitor.inputProperties.assertions).toMatchObject({ type: "array", items: { $ref: "#/types/uptime:index:Assertion" } });
    expect(types["uptime:index:Assertion"]).toMatchObject({
      type: "object",
      properties: { source: { type: "string" }, property: { type: "string" }, comparison: { type: "string" }, target: { type: "string" } },
      required: ["source", "comparison"],
    });
  });

  it("reads the stack config the dynamic resources read, with environment defaults, the key secret", () => {
    expect(schema.config.variables).toMatchObject({
      baseUrl: { type: "string", defaultInfo: { environment: ["UPTIME_API_URL"] } },
      apiKey: { type: "string", secret: true, defaultInfo: { environment: ["UPTIME_API_KEY"] } },
    });
  });
});
