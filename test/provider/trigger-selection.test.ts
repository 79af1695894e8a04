import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { startServer, type TestServer } from "../support/server";
import { startTarget, type Target } from "../support/target";

/**
 * `pulumi-uptime trigger` is a deploy gate: a selection that matches no monitor (a misspelt tag)
 * fails, naming the selection, unless the user says an empty one is expected (`--allow-empty`).
 */
describe("pulumi-uptime trigger with a selection of no monitors", () => {
  let s: TestServer;
  let site: Target;
  // The installed package's command when the packed packages are there, else the build's.
  const packed = inject("packedModules");
  const cliJs = packed ? join(packed, "pulumi-uptime/dist/provider/commands/cli.js") : join(REPO_ROOT, "dist/provider/commands/cli.js");
  const trigger = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(join(REPO_ROOT, "node_modules/.bin/node"), [cliJs, "trigger", ...args], { env: { ...process.env, UPTIME_API_URL: s.url, UPTIME_API_KEY: s.key }, timeout: 60_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    [s, site] = await Promise.all([startServer(), startTarget()]);
    const res = await s.call("POST", "/api/v1/monitors", { name: "shop", type: "http", url: site.url, interval_sec: 60, tags: ["shop"] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), site?.close()]);
  });

  it("a tag no monitor carries exits 1 naming the tag, and runs nothing", async () => {
    const hits = site.hits;
    const typo = await trigger("--tag", "no-such-tag");
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe("pulumi-uptime: tag no-such-tag selects no monitors: nothing was run (pass --allow-empty if that is expected)\n");
    expect(typo.stdout).toBe("");
    expect(site.hits).toBe(hits);
  });

  it("with --allow-empty it passes with an empty report", async () => {
    const allowed = await trigger("--tag", "no-such-tag", "--allow-empty");
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toBe("tag no-such-tag: no monitors to test.\n");
  });

  it("a tag that selects monitors runs them, --allow-empty or not", async () => {
    const run = await trigger("--tag", "shop", "--allow-empty");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("tag shop: 1 pass.");
  });
});
