import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmInstall, packPackage, programDevDependencies } from "../../scripts/packed";
import { type OfflineEngine, offlineEngine, prepareProgram, REPO_ROOT } from "../../scripts/pulumi-engine";
import { startServer, type TestServer } from "../support/server";

/** The oldest `@pulumi/pulumi` the provider supports: the floor of its peer dependency. */
export const OLDEST_SDK = (JSON.parse(readFileSync(join(REPO_ROOT, "provider/package.json"), "utf8")).peerDependencies["@pulumi/pulumi"] as string).replace(
  /^\^/,
  "",
);

/** Every installed copy of @pulumi/pulumi under `modules`, nested ones included. */
const sdkCopies = (modules: string) =>
  readdirSync(modules, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(join("@pulumi", "pulumi", "package.json")));

describe(`a program on the oldest supported @pulumi/pulumi (${OLDEST_SDK})`, () => {
  let s: TestServer;
  let engine: OfflineEngine;
  let stack: Stack;
  let workDir: string;

  beforeAll(async () => {
    s = await startServer();
    // Type-checked as it runs: the program compiles against the oldest SDK's own types.
    engine = await offlineEngine({ typeCheck: true });
    // A fresh project as `pulumi new typescript` makes it, then `npm install <packed pulumi-uptime>`.
    workDir = prepareProgram(join(__dirname, "programs", "oldest-sdk"), {});
    const tgz = packPackage("provider", workDir);
    writeFileSync(
      join(workDir, "package.json"),
      JSON.stringify({ name: "oldest-sdk", main: "index.ts", dependencies: { "@pulumi/pulumi": OLDEST_SDK }, devDependencies: programDevDependencies() }),
    );
    npmInstall(workDir);
    npmInstall(workDir, [tgz]);
    stack = await engine.stack(workDir);
    await stack.setAllConfig({ "uptime:baseUrl": { value: s.url }, "uptime:apiKey": { value: s.key, secret: true } });
  });

  afterAll(async () => {
    await stack?.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    engine?.dispose();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
    await s?.close();
  });

  it("installs one SDK copy, deploys a monitor through it and destroys it", async () => {
    expect(sdkCopies(join(workDir, "node_modules"))).toEqual([join("@pulumi", "pulumi", "package.json")]);

    const up = await stack.up();
    // The stack, its identity resource and the monitor.
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    expect(up.outputs.sdkVersion?.value).toBe(OLDEST_SDK);
    expect(up.outputs.isCustomResource?.value).toBe(true);
    const monitorId = up.outputs.monitorId?.value as string;
    expect((await s.call("GET", `/api/v1/monitors/${monitorId}`)).body.data.url).toBe("https://api.example.com/health");

    expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
    expect((await s.call("GET", `/api/v1/monitors/${monitorId}`)).status).toBe(404);
  });
});
