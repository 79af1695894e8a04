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
  const cliJs = packed
    ? join(packed, "pulumi-uptime/dist/provider/commands/cli.js")
    : join(REPO_ROOT, "dist/provider/commands/cli.js");
  const trigger = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        join(REPO_ROOT, "node_modules/.bin/node"),
        [cliJs, "trigger", ...args],
        { env: { ...process.env, UPTIME_API_URL: s.url, UPTIME_API_KEY: s.key }, timeout: 60_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    [s, site] = await Promise.all([startServer(), startTarget()]);
    const res = await s.call("POST", "/api/v1/monitors", {
      name: "shop",
      type: "http",
      url: site.url,
      interval_sec: 60,
      tags: ["shop"],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), site?.close()]);
  });

  it("a tag no monitor carries exits 1 naming the tag, and runs nothing", async () => {
    const hits = site.hits;
    const typo = await trigger("--tag", "no-such-tag");
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe(
      "pulumi-uptime: tag no-such-tag selects no monitors: nothing was run (pass --allow-empty if that is expected)\n",
    );
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

  it("a journey's rows are test's (its target, a row per step), and a location with no live agent fails its own row while the rest run", async () => {
    await s.app.store.keys.create("dev", "us agent", undefined, "us");
    const steps = [
      { name: "home", url: `${site.url}/` },
      { name: "account", url: `${site.url}/account` },
    ];
    const res = await s.call("POST", "/api/v1/monitors", {
      name: "journey",
      type: "multistep",
      interval_sec: 60,
      tags: ["journey"],
      steps,
      locations: ["local", "us"],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const run = await trigger("--tag", "journey");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(2);
    const lines = run.stdout.split("\n");
    const host = new URL(site.url).host;
    expect(lines.find((l) => l.startsWith("journey @local"))).toMatch(
      new RegExp(`^journey @local\\s+http://${host.replace(/\./g, "\\.")}/\\s+pass`),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}1\. home\s+pass/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}2\. account\s+pass/));
    expect(lines.find((l) => l.startsWith("journey @us"))).toMatch(/fail\s+Location us has no live agent/);
  });
});
