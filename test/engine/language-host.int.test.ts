import { execFile } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackage, sdkVersion } from "../../scripts/packed";
import { prepareProgram } from "../../scripts/pulumi-engine";
import { useEngine, useServer } from "../support/engine-suite";

describe("the Node language host (tools/pulumi-language-nodejs) from the user's side", () => {
  const s = useServer();
  const engine = useEngine();
  let stack: Stack;
  let workDir: string;

  /** Runs the CLI in the program's folder, as a user at a shell would. */
  const pulumi = (...args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile(
        join(engine.binDir, "pulumi"),
        args,
        { cwd: workDir, env: { ...process.env, ...engine.envVars }, timeout: 240_000 },
        (err, stdout, stderr) =>
          err ? reject(new Error(`pulumi ${args.join(" ")}: ${err.message}\n${stdout}${stderr}`)) : resolve(stdout),
      );
    });

  beforeAll(() => {
    workDir = prepareProgram(join(__dirname, "programs", "js-options"), {});
    const tgz = basename(packPackage("provider", workDir));
    writeFileSync(
      join(workDir, "package.json"),
      JSON.stringify({
        name: "js-options",
        main: "index.js",
        dependencies: { "pulumi-uptime": `file:./${tgz}`, "@pulumi/pulumi": sdkVersion() },
      }),
    );
  });

  // No destroy at the end: what the stack made lives on the server, which closes after it.
  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("pulumi install installs the program's packages", async () => {
    await pulumi("install");
    expect(existsSync(join(workDir, "node_modules", "pulumi-uptime", "package.json"))).toBe(true);
    expect(existsSync(join(workDir, "node_modules", "@pulumi", "pulumi", "cmd", "run", "index.js"))).toBe(true);
  });

  it("runs a JavaScript program with the runtime options typescript: false and nodeargs", async () => {
    stack = await engine.stack(workDir);
    await stack.setAllConfig({ "uptime:baseUrl": { value: s.url }, "uptime:apiKey": { value: s.key, secret: true } });
    const up = await stack.up();
    expect(up.outputs.execArgv?.value).toEqual(["--max-old-space-size=512", "--no-deprecation"]);
    expect(up.outputs.typescript?.value).toBe(false);
    expect((await s.call("GET", `/api/v1/monitors/${up.outputs.monitorId?.value}`)).status).toBe(200);
  });

  it("pulumi about names Node and the program's dependencies", async () => {
    const about = JSON.parse(await pulumi("about", "--json", "--stack", "dev"));
    expect(about.runtime).toMatchObject({
      language: "nodejs",
      packagemanager: "npm",
      version: expect.stringMatching(/^v24\./),
    });
    expect(about.dependencies).toEqual(
      expect.arrayContaining([
        { name: "pulumi-uptime", version: "0.1.0" },
        { name: "@pulumi/pulumi", version: sdkVersion() },
      ]),
    );
  });
});
