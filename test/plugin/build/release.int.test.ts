import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePlugin, type PluginBuild, VERSION } from "../../../plugin/build/bundle";
import { releaseTarballs } from "../../../plugin/build/sea";
import { PLUGIN_KINDS } from "../../../plugin/kinds";
import { packageSchema } from "../../../plugin/schema";
import { type OfflineEngine, offlineEngine } from "../../../scripts/pulumi-engine";

const listing = (tarball: string) =>
  execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean).sort();

describe("the plugin's release tarballs", () => {
  let dir: string;
  let plugin: PluginBuild;
  let tarballs: Record<string, string>;
  let engine: OfflineEngine;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-release-"));
    plugin = await bundlePlugin(dir);
    tarballs = await releaseTarballs(plugin, dir, ["linux-amd64", "darwin-arm64"]);
    engine = await offlineEngine();
  });
  afterAll(() => {
    engine?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("linux-amd64 is one executable that serves the engine with no Node on PATH", () => {
    expect(tarballs["linux-amd64"]).toMatch(
      new RegExp(`pulumi-resource-uptime-v${VERSION.replace(/\./g, "\\.")}-linux-amd64\\.tar\\.gz$`),
    );
    expect(listing(tarballs["linux-amd64"] as string)).toEqual(["pulumi-resource-uptime"]);
    // PATH holds the CLI alone: the system's Node (and the devDependency's) cannot be found.
    const env = { ...engine.envVars, PATH: engine.binDir };
    const pulumi = (args: string[]) =>
      execFileSync(join(engine.binDir, "pulumi"), args, { cwd: dir, env, encoding: "utf8" });
    pulumi(["plugin", "install", "resource", "uptime", VERSION, "--file", tarballs["linux-amd64"] as string]);
    // The engine starts the plugin and asks it for its schema over gRPC (GetSchema).
    const schema = JSON.parse(pulumi(["package", "get-schema", "uptime"]));
    expect(schema).toEqual(packageSchema(PLUGIN_KINDS, VERSION));
    expect(schema.pluginDownloadURL).toBe("github://api.github.com/pulumi-uptime/pulumi-uptime");
  });

  it("darwin is the launcher and the bundle, run with the system's Node (>= 22)", () => {
    expect(listing(tarballs["darwin-arm64"] as string)).toEqual([
      "pulumi-resource-uptime",
      "pulumi-resource-uptime.js",
    ]);
  });
});
