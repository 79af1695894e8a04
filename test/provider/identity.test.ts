import { describe, expect, it } from "vitest";
import { ExternalIdSchema } from "../../api";
import { createKey, markOf, stackMarkPrefix } from "../../provider/runtime/identity";

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
