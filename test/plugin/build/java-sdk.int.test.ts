import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePlugin } from "../../../plugin/build/bundle";
import { buildJavaSdk, type JavaSdkBuild } from "../../../plugin/build/java";

interface SchemaProperty {
  description?: string;
}
interface Schema {
  resources: Record<string, { inputProperties?: Record<string, SchemaProperty> }>;
  types: Record<string, { enum?: unknown[]; properties?: Record<string, SchemaProperty> }>;
  functions: Record<string, unknown>;
}

const name = (token: string) => token.split(":")[2]!;
/** Javadoc escapes what HTML would read; the docs are compared as a reader of the source sees them. */
const unescape = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&#34;|&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
/** A description's first line, as the generator writes it into a Javadoc comment. */
const firstLine = (text: string) => text.split("\n")[0]!.trim();

describe("the generated Java SDK", () => {
  const work = mkdtempSync(join(tmpdir(), "pulumi-uptime-java-sdk-"));
  let schema: Schema;
  let sdk: JavaSdkBuild;
  let classes: Set<string>;
  const source = (path: string) =>
    unescape(readFileSync(join(sdk.dir, "src/main/java/com/pulumi/uptime", path), "utf8"));

  beforeAll(async () => {
    const plugin = await bundlePlugin(join(work, "plugin"));
    schema = JSON.parse(readFileSync(plugin.schemaPath, "utf8")) as Schema;
    sdk = await buildJavaSdk(plugin);
    const listing = execFileSync("jar", ["tf", sdk.jar], { encoding: "utf8" }).split("\n");
    classes = new Set(
      listing
        .filter((f) => f.startsWith("com/pulumi/uptime/") && f.endsWith(".class"))
        .map((f) => f.slice("com/pulumi/uptime/".length, -".class".length)),
    );
  }, 600_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("has a class and an args builder for every resource, the component included", () => {
    const resources = Object.keys(schema.resources).map(name);
    expect(resources).toContain("MonitorGroup");
    expect(resources.filter((r) => !classes.has(r) || !classes.has(`${r}Args`))).toEqual([]);
  });

  it("has a Java enum for every enum and a class for every object type", () => {
    const types = Object.entries(schema.types);
    const enums = types.filter(([, t]) => t.enum).map(([token]) => name(token));
    const objects = types.filter(([, t]) => !t.enum).map(([token]) => name(token));
    expect(enums.length).toBeGreaterThan(10);
    expect(enums.filter((e) => !classes.has(`enums/${e}`))).toEqual([]);
    expect(
      objects.filter(
        (o) => !["inputs/", "outputs/"].some((dir) => classes.has(`${dir}${o}`) || classes.has(`${dir}${o}Args`)),
      ),
    ).toEqual([]);
  });

  it("has every function, the lookups and the reads, as a method of UptimeFunctions", () => {
    const functions = source("UptimeFunctions.java");
    const names = Object.keys(schema.functions).map(name);
    expect(names).toEqual(expect.arrayContaining(["getMonitor", "getMonitorStats", "getStatusDocument"]));
    expect(names.filter((f) => !functions.includes(` ${f}(`) || !functions.includes(` ${f}Plain(`))).toEqual([]);
  });

  it("carries every resource input's doc as Javadoc", () => {
    const missing: string[] = [];
    for (const [token, resource] of Object.entries(schema.resources)) {
      const args = source(`${name(token)}Args.java`);
      for (const [prop, { description }] of Object.entries(resource.inputProperties ?? {})) {
        if (!description) missing.push(`${name(token)}.${prop} has no description`);
        else if (!args.includes(firstLine(description))) missing.push(`${name(token)}.${prop}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
