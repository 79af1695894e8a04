import { execFile } from "node:child_process";
import { Writable } from "node:stream";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestReport } from "../../provider/commands/test";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { previewError, useServer, useStack } from "../support/engine-suite";
import { startTarget, type Target } from "../support/target";

const SECRET = "tok-s3cret-9f1c2e";

describe("dry runs in the engine: pulumi-uptime test and uptime:testChecks", () => {
  let ok: Target;
  let slow: Target;
  let json: Target;
  const serverLog: string[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (serverLog.push(String(chunk)), done()) });
  const s = useServer({ logger: { level: "debug", stream } as never });
  beforeAll(async () => {
    [ok, slow, json] = await Promise.all([startTarget(), startTarget(), startTarget()]);
    slow.delayMs = 400;
    json.contentType = "application/json";
    json.body = JSON.stringify({ status: "down" });
  });
  afterAll(async () => {
    await Promise.all([ok?.close(), slow?.close(), json?.close()]);
  });
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/dry-run",
    server: s,
    config: () => ({
      okUrl: { value: ok.url },
      slowUrl: { value: `${slow.url}/page` },
      jsonUrl: { value: `${json.url}/status` },
      token: { value: SECRET, secret: true },
    }),
  });

  /** Runs `pulumi-uptime test` as a CI pipeline would: a separate process. */
  const testCommand = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        join(REPO_ROOT, "node_modules/.bin/node"),
        [join(REPO_ROOT, "dist/provider/commands/cli.js"), "test", "--stack", "dev", "--cwd", program.workDir, ...args],
        { env: { ...process.env, ...engine.envVars }, timeout: 150_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it("pulumi-uptime test prints a row per monitor and exits 2; secrets never show", async () => {
    const text = await testCommand();
    expect(text.code, text.stderr).toBe(2);
    const row = (name: string) => text.stdout.split("\n").find((l) => l.startsWith(`${name} `)) ?? "";
    expect(row("home")).toMatch(/pass\s+-\s+\d+ ms$/);
    expect(row("search")).toMatch(/pass/);
    expect(row("port")).toMatch(/^port\s+tcp:\/\/127\.0\.0\.1:\d+\s+pass/);
    expect(row("slow-page")).toMatch(/degraded/);
    expect(row("status-json")).toMatch(/fail\s+json_body \$\.status equals "ok": found "down"/);
    expect(row("paged")).toMatch(/skipped: depends on values known after `pulumi up`/);
    expect(text.stdout).toMatch(/1 fail/);

    const asJson = await testCommand("--json");
    expect(asJson.code).toBe(2);
    const report = JSON.parse(asJson.stdout) as TestReport;
    expect(Object.fromEntries(report.monitors.map((m) => [m.resource, m.outcome]))).toEqual({
      home: "pass",
      search: "pass",
      port: "pass",
      "slow-page": "degraded",
      "status-json": "fail",
      paged: "skipped",
    });
    const filtered = JSON.parse((await testCommand("--json", "--filter", "tag:prod")).stdout) as TestReport;
    expect(filtered.monitors.map((m) => m.resource)).toEqual(["search"]);
    // --location reaches the service: a location it does not know is named back, per monitor.
    const elsewhere = JSON.parse(
      (await testCommand("--json", "--filter", "tag:prod", "--location", "nowhere")).stdout,
    ) as TestReport;
    expect(elsewhere.monitors).toEqual([
      expect.objectContaining({
        resource: "search",
        outcome: "error",
        failure: expect.stringContaining("location nowhere is not one of the account's locations"),
      }),
    ]);
    // The headers reached the target, and were printed nowhere.
    expect(ok.hits).toBeGreaterThan(0);
    for (const out of [text.stdout, text.stderr, asJson.stdout, asJson.stderr, serverLog.join("")])
      expect(out).not.toContain(SECRET);
    // A dry run stores nothing: no monitor exists yet.
    expect((await s.call("GET", "/api/v1/monitors")).body.data).toEqual([]);
  }, 400_000);

  it("preview with uptime:testChecks fails naming the failing monitor; the fixed program passes both", async () => {
    await stack.setConfig("uptime:testChecks", { value: "true" });
    const failed = await previewError(stack);
    expect(failed).toMatch(/status-json/);
    expect(failed).toMatch(/json_body \$\.status equals "ok": found "down"/);
    expect(failed).not.toContain(SECRET);

    await stack.setConfig("fixed", { value: "true" });
    await expect(stack.preview()).resolves.toBeDefined();
    const text = await testCommand();
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^status-json .* pass/m);

    // `up` runs the checks too: now every monitor is known, and passes.
    const up = await stack.up();
    // The stack, its identity resource, the channel and the six monitors.
    expect(up.summary.resourceChanges?.create).toBe(9);
    expect((await s.call("GET", "/api/v1/monitors")).body.data).toHaveLength(6);
  }, 400_000);
});
