import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePlugin, type PluginBuild, VERSION } from "../../../plugin/build/bundle";
import { packageSchema } from "../../../plugin/schema";
import { PLUGIN_KINDS } from "../../../plugin/kinds";

describe("the plugin package", () => {
  let dir: string;
  let plugin: PluginBuild;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-bundle-"));
    plugin = await bundlePlugin(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is a tarball of the launcher and the bundle, named for the package's version", () => {
    expect(plugin.tarball).toMatch(
      new RegExp(`pulumi-resource-uptime-v${VERSION.replace(/\./g, "\\.")}-linux-amd64\\.tar\\.gz$`),
    );
    const listing = execFileSync("tar", ["-tzf", plugin.tarball], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .sort();
    expect(listing).toEqual(["pulumi-resource-uptime", "pulumi-resource-uptime.js"]);
  });

  it("serves the schema generated from the field tables, at the package's version", () => {
    const printed = execFileSync(join(plugin.binDir, "pulumi-resource-uptime"), ["--schema"], { encoding: "utf8" });
    expect(JSON.parse(printed)).toEqual(packageSchema(PLUGIN_KINDS, VERSION));
    expect(JSON.parse(readFileSync(plugin.schemaPath, "utf8"))).toEqual(JSON.parse(printed));
  });
});
