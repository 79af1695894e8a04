import { describe, expect, it } from "vitest";
import { ExternalIdSchema } from "../../api";
import {
  createKey,
  instanceOfMark,
  isStackMark,
  markOf,
  newStackInstance,
  stackMarkPrefix,
} from "../../provider/runtime/identity";
import { checkProviderInputs, urnIdentity } from "../../plugin/identity";
import { stackInstancesOf } from "../../provider/commands/orphans";

const base = { project: "shop", stack: "prod", kind: "Monitor" as const, name: "api" };

describe("resource marks", () => {
  it("name the project, stack, kind and resource, under the stack's prefix", () => {
    expect(markOf(base)).toBe("pulumi/shop/prod/Monitor/api");
    expect(markOf(base).startsWith(stackMarkPrefix("shop", "prod"))).toBe(true);
  });

  it("differ between stacks, projects, kinds, names and parents", () => {
    const marks = [
      base,
      { ...base, stack: "staging" },
      { ...base, project: "blog" },
      { ...base, kind: "Channel" as const },
      { ...base, name: "api2" },
      { ...base, parentUrn: "urn:pulumi:prod::shop::my:Component::a" },
      { ...base, parentUrn: "urn:pulumi:prod::shop::my:Component::b" },
    ].map(markOf);
    expect(new Set(marks).size).toBe(marks.length);
  });

  it("stay valid external_ids for long, unicode and control-character names, and stay unique", () => {
    const names = ["x".repeat(300), "x".repeat(299), "監視🚀".repeat(100), "tab\there", "tab_here"];
    const marks = names.map((name) => markOf({ ...base, name }));
    for (const mark of marks) {
      expect(ExternalIdSchema.safeParse(mark).success, mark).toBe(true);
      expect(mark.startsWith("pulumi/shop/prod/Monitor/")).toBe(true);
    }
    expect(new Set(marks).size).toBe(names.length);
  });
});

describe("stack instances in marks", () => {
  const instance = "0123456789abcdef";
  const ours = { project: "shop", stack: "prod", instances: new Set([instance]) };

  it("a mark carries the stack instance after the stack's names, and two instances of one stack name differ", () => {
    expect(markOf({ ...base, instance })).toBe(`pulumi/shop/prod/${instance}/Monitor/api`);
    expect(markOf({ ...base, instance })).not.toBe(markOf({ ...base, instance: "fedcba9876543210" }));
    expect(instanceOfMark(markOf({ ...base, instance }))).toBe(instance);
    expect(instanceOfMark(markOf(base))).toBeUndefined();
    expect(newStackInstance()).toMatch(/^[0-9a-f]{16}$/);
    expect(newStackInstance()).not.toBe(newStackInstance());
  });

  it("a stack knows its instances' marks under any name (a renamed stack), and marks without an instance under its own names", () => {
    for (const kind of ["Monitor", "Channel", "StatusPage", "MaintenanceWindow"] as const) {
      expect(isStackMark(markOf({ ...base, kind, instance }), ours)).toBe(true);
      expect(isStackMark(markOf({ ...base, kind }), ours)).toBe(true);
    }
    expect(isStackMark(markOf({ ...base, stack: "old-name", instance }), ours)).toBe(true);
    // Another backend's stack of the same names is not this one.
    expect(isStackMark(markOf({ ...base, instance: "fedcba9876543210" }), ours)).toBe(false);
    expect(isStackMark(markOf({ ...base, stack: "staging" }), ours)).toBe(false);
    expect(isStackMark("pulumi/shop/prod-eu/Monitor/api", ours)).toBe(false);
    expect(isStackMark("made-by-hand", ours)).toBe(false);
  });

  it("the state names its instances: the StackIdentity resource, each native provider, the marks of its objects", () => {
    const found = stackInstancesOf([
      {
        type: "pulumi-nodejs:dynamic/uptime:StackIdentity",
        id: "1111111111111111",
        outputs: { instance: "1111111111111111" },
      },
      { type: "pulumi:providers:uptime", inputs: { stackInstance: "2222222222222222" } },
      { type: "uptime:index:Monitor", outputs: { externalId: markOf({ ...base, instance: "3333333333333333" }) } },
      { type: "uptime:index:Monitor", outputs: { externalId: markOf(base) } },
      { type: "pulumi:providers:uptime", inputs: { stackInstance: "not an instance" } },
    ]);
    expect([...found].sort()).toEqual(["1111111111111111", "2222222222222222", "3333333333333333"]);
  });
});

describe("the native plugin's identity", () => {
  it("a provider keeps the instance its state holds, and a new provider draws one", () => {
    const kept = checkProviderInputs(
      { stackInstance: "0123456789abcdef", version: "0.1.0" },
      { baseUrl: "http://127.0.0.1:1", version: "0.1.0" },
    );
    expect(kept).toEqual({ baseUrl: "http://127.0.0.1:1", version: "0.1.0", stackInstance: "0123456789abcdef" });
    const fresh = checkProviderInputs({}, { version: "0.1.0" });
    expect(fresh.stackInstance).toMatch(/^[0-9a-f]{16}$/);
    expect(checkProviderInputs({}, { version: "0.1.0" }).stackInstance).not.toBe(fresh.stackInstance);
  });

  it("a resource's identity comes from its URN: project, stack, name, and its parents' types", () => {
    expect(
      urnIdentity("urn:pulumi:dev::shop::uptime:index:Monitor::api", "Monitor", "api", "0123456789abcdef"),
    ).toEqual({
      project: "shop",
      stack: "dev",
      kind: "Monitor",
      name: "api",
      instance: "0123456789abcdef",
    });
    const child = urnIdentity(
      "urn:pulumi:dev::shop::my:Site$uptime:index:Monitor::api",
      "Monitor",
      "api",
      "0123456789abcdef",
    );
    expect(child.parentUrn).toBe("my:Site");
    expect(markOf(child)).toMatch(/^pulumi\/shop\/dev\/0123456789abcdef\/Monitor\/api@[0-9a-f]{8}$/);
  });
});

describe("create keys", () => {
  const body = { name: "api", tags: ["a"], headers: { "x-a": "1", "x-b": "2" } };
  it("are the same for the same mark and body, whatever the key order of the body", () => {
    const reordered = { headers: { "x-b": "2", "x-a": "1" }, tags: ["a"], name: "api" };
    expect(createKey("uk_one", "m", body)).toBe(createKey("uk_one", "m", reordered));
    expect(createKey("uk_one", "m", body)).toMatch(/^pulumi-uptime-[0-9a-f]{64}$/);
  });

  it("change with the mark, the body and the account's key, and never contain the body", () => {
    const keys = [
      createKey("uk_one", "m", body),
      createKey("uk_one", "m2", body),
      createKey("uk_one", "m", { ...body, tags: ["b"] }),
      createKey("uk_two", "m", body),
    ];
    expect(new Set(keys).size).toBe(4);
    expect(keys.join()).not.toContain("x-a");
  });
});
