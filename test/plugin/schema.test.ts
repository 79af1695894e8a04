import { describe, expect, it } from "vitest";
import { PLUGIN_KINDS } from "../../plugin/kinds";
import { packageSchema } from "../../plugin/schema";
import { resourceRows, typedRows } from "../../plugin/schema-rows";
import { CONFIG_KEY_DESCRIPTIONS } from "../../plugin/channel-config";
import { KINDS } from "../../provider/kinds/registry";
import { toCamel } from "../../provider/kinds/values";
import {
  CHANNEL_CONFIG_SCHEMAS,
  CHANNEL_EVENTS,
  CHANNEL_TYPES,
  type FieldType,
  MONITOR_TYPES,
  PLAIN_CONFIG_KEYS,
} from "../../api";

type TypeSpec = {
  type: string;
  properties: Record<string, TypeSpec>;
  required?: string[];
  enum?: { value: unknown }[];
};

type Prop = { type?: string; secret?: boolean; replaceOnChanges?: boolean; default?: unknown; description?: string };
type Resource = { properties: Record<string, Prop>; inputProperties: Record<string, Prop>; requiredInputs: string[] };

const schema = packageSchema(PLUGIN_KINDS, "1.2.3") as {
  version: string;
  config: { variables: Record<string, Prop & { defaultInfo?: { environment: string[] } }> };
  resources: Record<string, Resource>;
};

describe("the native plugin's schema is the kinds' field tables", () => {
  it("has one resource per kind the runtime serves, and the MonitorGroup component, at the plugin's version", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(
      [...Object.keys(KINDS), "MonitorGroup"].map((k) => `uptime:index:${k}`).sort(),
    );
    expect(schema.version).toBe("1.2.3");
  });

  it("describes MonitorGroup as a component whose monitors take a Monitor's inputs, each shared setting optional", () => {
    const group = schema.resources["uptime:index:MonitorGroup"] as unknown as Resource & { isComponent: boolean };
    expect(group.isComponent).toBe(true);
    expect(group.requiredInputs).toEqual(["monitors"]);
    expect(Object.keys(group.inputProperties)).toEqual([
      "locations",
      "channelIds",
      "intervalSec",
      "confirmations",
      "tags",
      "connection",
      "monitors",
      "maintenanceWindows",
    ]);
    const types = (
      schema as unknown as { types: Record<string, { properties: Record<string, unknown>; required?: string[] }> }
    ).types;
    const groupMonitor = types["uptime:index:GroupMonitor"]!;
    const monitor = schema.resources["uptime:index:Monitor"] as Resource;
    expect(Object.keys(groupMonitor.properties)).toEqual(Object.keys(monitor.inputProperties));
    expect(groupMonitor.required).toEqual(monitor.requiredInputs.filter((p) => p !== "intervalSec"));
    expect(Object.keys(types["uptime:index:GroupMaintenanceWindow"]!.properties)).not.toContain("monitorIds");
    // An SDK fills in a stated default, which would then win over the group's setting.
    expect(groupMonitor.properties.confirmations).not.toHaveProperty("default");
    expect(group.inputProperties.confirmations).not.toHaveProperty("default");
    // The ids as a list in key order, and by key: what a program looks one monitor up by.
    const outputs = (
      group as unknown as { properties: Record<string, { type: string; additionalProperties?: { type: string } }> }
    ).properties;
    expect(outputs.monitorIdsByName).toMatchObject({ type: "object", additionalProperties: { type: "string" } });
    expect(outputs.monitorIds).toMatchObject({ type: "array" });
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
        expect(resource.requiredInputs.sort()).toEqual(
          inputs
            .filter(([, f]) => f.required)
            .map(([p]) => p)
            .sort(),
        );
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
        const replacing = Object.entries(resource.inputProperties)
          .filter(([, p]) => p.replaceOnChanges)
          .map(([k]) => k);
        expect(replacing.sort()).toEqual(kind.fields.replaceOnChange().sort());
      });
    });
  }

  it("types every enum of the tables as an enum type with the table's values", () => {
    const types = (schema as unknown as { types: Record<string, TypeSpec> }).types;
    for (const [name, kind] of Object.entries(PLUGIN_KINDS)) {
      const resource = schema.resources[`uptime:index:${name}`] as Resource;
      for (const [prop, row] of typedRows(kind).inputs) {
        const values = row.type.enum ?? (row.type.items && "enum" in row.type.items ? row.type.items.enum : undefined);
        if (!values) continue;
        const p = resource.inputProperties[prop] as Prop & { $ref?: string; items?: { $ref?: string } };
        const token = (p.$ref ?? p.items?.$ref ?? "").replace("#/types/", "");
        expect(
          types[token]?.enum?.map((e) => e.value),
          `${name}.${prop}`,
        ).toEqual([...values]);
      }
    }
    expect(types["uptime:index:MonitorType"]?.enum?.map((e) => e.value)).toEqual([...MONITOR_TYPES]);
    expect(types["uptime:index:ChannelEvent"]?.enum?.map((e) => e.value)).toEqual([...CHANNEL_EVENTS]);
  });

  it("types every named object of the tables: each property's type, enum values, secret flag and requiredness", () => {
    const types = (schema as unknown as { types: Record<string, TypeSpec> }).types;
    const check = (t: FieldType): void => {
      if (t.items && !("oneOf" in t.items)) check(t.items);
      if (!t.ref) return;
      const spec = types[`uptime:index:${t.ref}`] as TypeSpec;
      expect(spec.type, t.ref).toBe("object");
      expect(Object.keys(spec.properties).sort(), t.ref).toEqual(Object.keys(t.properties ?? {}).sort());
      expect([...(spec.required ?? [])].sort(), t.ref).toEqual([...(t.requiredProperties ?? [])].sort());
      for (const [p, pt] of Object.entries(t.properties ?? {})) {
        const ps = spec.properties[p] as TypeSpec & { $ref?: string; secret?: boolean };
        expect(Boolean(ps.secret), `${t.ref}.${p} secret`).toBe(Boolean(pt.secret));
        if (pt.enum)
          expect(
            types[(ps.$ref ?? "").replace("#/types/", "")]?.enum?.map((e) => e.value),
            `${t.ref}.${p}`,
          ).toEqual([...pt.enum]);
        else if (!pt.ref) expect(ps.type, `${t.ref}.${p}`).toBe(pt.type);
        check(pt);
      }
    };
    for (const kind of Object.values(PLUGIN_KINDS))
      for (const [, row] of typedRows(kind).outputs.concat(typedRows(kind).inputs)) check(row.type);
  });

  it("types a channel's config per channel type from the API's schemas, the secret keys secret", () => {
    const types = (schema as unknown as { types: Record<string, TypeSpec> }).types;
    const channel = schema.resources["uptime:index:Channel"] as Resource;
    expect(channel.inputProperties.config).toMatchObject({ $ref: "#/types/uptime:index:ChannelConfig", secret: true });
    expect(Object.keys(types["uptime:index:ChannelConfig"]?.properties ?? {})).toEqual([...CHANNEL_TYPES]);
    for (const type of CHANNEL_TYPES) {
      const spec = types[`uptime:index:${type[0]!.toUpperCase()}${type.slice(1)}Config`] as TypeSpec;
      const keys = Object.keys(CHANNEL_CONFIG_SCHEMAS[type].shape);
      expect(Object.keys(spec.properties).sort(), type).toEqual(keys.map(toCamel).sort());
      for (const key of keys) {
        const p = spec.properties[toCamel(key)] as { secret?: boolean; description?: string };
        expect(Boolean(p.secret), `${type}.${key} secret`).toBe(!PLAIN_CONFIG_KEYS.has(key));
        expect(CONFIG_KEY_DESCRIPTIONS[key], `${key} is described`).toBeDefined();
      }
    }
    expect(types["uptime:index:WebhookConfig"]).toMatchObject({
      properties: { url: { secret: true }, secret: { secret: true } },
      required: ["url"],
    });
    expect(types["uptime:index:EmailConfig"]).toMatchObject({
      properties: { address: { type: "string" } },
      required: ["address"],
    });
  });

  it("describes every property of every object type (the docs' rules), the functions' results included", () => {
    const types = (schema as unknown as { types: Record<string, TypeSpec & { description?: string }> }).types;
    for (const [token, t] of Object.entries(types)) {
      if (t.type !== "object") continue;
      for (const [p, spec] of Object.entries(t.properties))
        expect((spec as { description?: string }).description, `${token}.${p}`).toMatch(/\S/);
    }
    const functions = (
      schema as unknown as {
        functions: Record<string, { outputs: { properties: Record<string, { description?: string }> } }>;
      }
    ).functions;
    for (const [token, f] of Object.entries(functions)) {
      for (const [p, spec] of Object.entries(f.outputs.properties))
        expect(spec.description, `${token}.${p}`).toMatch(/\S/);
    }
  });

  it("types the connection: the key secret, the insecure flag a boolean", () => {
    const types = (schema as unknown as { types: Record<string, TypeSpec> }).types;
    expect(types["uptime:index:Connection"]).toMatchObject({
      properties: {
        baseUrl: { type: "string" },
        apiKey: { type: "string", secret: true },
        allowInsecureHttp: { type: "boolean" },
      },
    });
  });

  it("requires only the outputs the service always sets: nullable ones and those defaulting to none are optional", () => {
    const required = (kind: string) =>
      (schema.resources[`uptime:index:${kind}`] as Resource & { required: string[] }).required;
    for (const p of ["url", "body", "keyword", "pushUrl", "lastCheckedAt", "externalId", "degradedResponseMs"])
      expect(required("Monitor"), p).not.toContain(p);
    expect(required("StatusPage")).not.toContain("description");
    expect(required("MaintenanceWindow")).not.toContain("rrule");
    expect(required("Monitor")).toEqual(
      expect.arrayContaining(["type", "intervalSec", "health", "status", "endpoint", "name"]),
    );
    for (const [name, kind] of Object.entries(PLUGIN_KINDS)) {
      for (const [p, f] of resourceRows(kind.table).outputs) {
        if (f.type.nullable || f.default === null) expect(required(name), `${name}.${p}`).not.toContain(p);
      }
    }
  });

  it("states no constant default for a timeout that a short interval lowers; the rule is in its description", () => {
    const timeout = (schema.resources["uptime:index:Monitor"] as Resource).inputProperties.timeoutSec as Prop;
    expect(timeout.default).toBeUndefined();
    expect(timeout.description).toContain("`intervalSec` − 1");
  });

  it("offers a lookup per kind and the reads of the TypeScript package as functions", () => {
    const functions = (
      schema as unknown as {
        functions: Record<string, { inputs: { required?: string[] }; outputs: { properties: Record<string, Prop> } }>;
      }
    ).functions;
    expect(Object.keys(functions).sort()).toEqual(
      [
        ...Object.keys(KINDS).map((k) => `uptime:index:get${k}`),
        "uptime:index:getMonitorHeartbeats",
        "uptime:index:getMonitorStats",
        "uptime:index:getStatusDocument",
      ].sort(),
    );
    const getMonitor = functions["uptime:index:getMonitor"]!;
    // By id or by name (a status page by slug): neither is required alone.
    expect(getMonitor.inputs.required).toBeUndefined();
    expect(Object.keys((getMonitor.inputs as unknown as { properties: object }).properties)).toEqual([
      "id",
      "name",
      "connection",
    ]);
    expect(
      Object.keys((functions["uptime:index:getStatusPage"]!.inputs as unknown as { properties: object }).properties),
    ).toEqual(["id", "slug", "connection"]);
    // Secrets never come back from a lookup.
    expect(Object.keys(getMonitor.outputs.properties)).not.toContain("headers");
    expect(Object.keys(getMonitor.outputs.properties)).toEqual(
      expect.arrayContaining(["id", "url", "intervalSec", "health"]),
    );
  });

  it("names its repository, publisher, homepage, license and keywords", () => {
    expect(schema).toMatchObject({
      repository: expect.stringMatching(/^https:\/\//),
      homepage: expect.stringMatching(/^https:\/\//),
      publisher: expect.any(String),
      license: "Apache-2.0",
    });
    expect((schema as unknown as { keywords: string[] }).keywords).toEqual(
      expect.arrayContaining(["pulumi", "category/monitoring"]),
    );
  });

  it("types a monitor's assertions as a list of objects, so SDKs get a class with typed properties", () => {
    const types = (
      schema as unknown as {
        types: Record<string, { type: string; properties: Record<string, { type?: string }>; required: string[] }>;
      }
    ).types;
    const monitor = schema.resources["uptime:index:Monitor"] as Resource;
    expect(monitor.inputProperties.assertions).toMatchObject({
      type: "array",
      items: { $ref: "#/types/uptime:index:Assertion" },
    });
    expect(types["uptime:index:Assertion"]).toMatchObject({
      type: "object",
      properties: {
        source: { $ref: "#/types/uptime:index:AssertionSource" },
        property: { type: "string" },
        comparison: { $ref: "#/types/uptime:index:AssertionComparison" },
        target: { type: "string" },
      },
      required: ["source", "comparison"],
    });
  });

  it("types a multi-step monitor's steps, their extractions and a retry strategy as objects, so SDKs get typed step classes", () => {
    const types = (
      schema as unknown as {
        types: Record<string, { type: string; properties: Record<string, unknown>; required?: string[] }>;
      }
    ).types;
    const monitor = schema.resources["uptime:index:Monitor"] as Resource;
    expect(monitor.inputProperties.steps).toMatchObject({
      type: "array",
      items: { $ref: "#/types/uptime:index:MonitorStep" },
    });
    expect(monitor.inputProperties.variables).toMatchObject({
      type: "object",
      additionalProperties: { type: "string" },
      secret: true,
    });
    expect(monitor.inputProperties.retry).toMatchObject({ $ref: "#/types/uptime:index:RetryStrategy" });
    expect(types["uptime:index:MonitorStep"]).toMatchObject({
      type: "object",
      properties: {
        name: { type: "string" },
        method: { $ref: "#/types/uptime:index:MonitorStepMethod" },
        url: { type: "string" },
        extract: { type: "array", items: { $ref: "#/types/uptime:index:StepExtraction" } },
        assertions: { type: "array", items: { $ref: "#/types/uptime:index:Assertion" } },
        cleanup: { type: "boolean" },
      },
      required: ["name", "url"],
    });
    expect(types["uptime:index:StepExtraction"]?.properties.source).toEqual(
      expect.objectContaining({ $ref: "#/types/uptime:index:StepExtractionSource" }),
    );
    expect(types["uptime:index:RetryStrategy"]).toMatchObject({
      type: "object",
      properties: { strategy: { $ref: "#/types/uptime:index:RetryStrategyStrategy" }, delay: { type: "integer" } },
      required: ["strategy"],
    });
  });

  it("reads the stack config the dynamic resources read, with environment defaults, the key secret", () => {
    expect(schema.config.variables).toMatchObject({
      baseUrl: { type: "string", defaultInfo: { environment: ["UPTIME_API_URL"] } },
      apiKey: { type: "string", secret: true, defaultInfo: { environment: ["UPTIME_API_KEY"] } },
    });
  });
});
