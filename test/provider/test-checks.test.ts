import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { UNKNOWN } from "../../provider/kinds/values";
import { startServer, type TestServer } from "../support/server";
import { startTarget, type Target } from "../support/target";

const configure = (values: Record<string, string>) =>
  runtime.configure({ config: { get: (key: string) => values[key.replace(/^uptime:/, "")] } } as never);

describe("uptime:testChecks (the provider's check runs the dry run)", () => {
  let s: TestServer;
  let target: Target;
  beforeAll(async () => {
    s = await startServer();
    target = await startTarget();
    target.contentType = "application/json";
    target.body = JSON.stringify({ status: "down" });
  });
  afterAll(async () => {
    await configure({});
    await s.close();
    await target.close();
  });
  const monitor = (over: Record<string, unknown> = {}) => ({
    name: "api",
    type: "http",
    url: `${target.url}/health?token=s3cret`,
    intervalSec: 60,
    headers: { "x-token": "hdr-s3cret" },
    assertions: [{ source: "json_body", property: "$.status", comparison: "equals", target: "ok" }],
    __dryRun: { resource: "api-health" },
    ...over,
  });

  it("fails a new monitor whose check fails, naming the resource and the assertion, never a secret", async () => {
    await configure({ baseUrl: s.url, apiKey: s.key, testChecks: "true" });
    const { failures } = await runtime.check("Monitor", {}, monitor());
    expect(failures).toHaveLength(1);
    expect(failures?.[0]?.property).toBe("assertions");
    expect(failures?.[0]?.reason).toMatch(
      /monitor "api-health" failed: json_body \$\.status equals "ok": found "down"/,
    );
    expect(JSON.stringify(failures)).not.toMatch(/s3cret/);
  });

  it("lets through a monitor expected to fail, an unchanged one, and one with unknown inputs", async () => {
    await configure({ baseUrl: s.url, apiKey: s.key, testChecks: "true" });
    const hits = target.hits;
    expect(
      (await runtime.check("Monitor", {}, monitor({ __dryRun: { resource: "later", expectFailing: true } }))).failures,
    ).toEqual([]);
    expect((await runtime.check("Monitor", monitor(), monitor())).failures).toEqual([]);
    expect((await runtime.check("Monitor", {}, monitor({ url: UNKNOWN }))).failures).toEqual([]);
    expect(target.hits).toBe(hits + 1);
  });

  it("runs nothing without the setting", async () => {
    await configure({ baseUrl: s.url, apiKey: s.key });
    const hits = target.hits;
    expect((await runtime.check("Monitor", {}, monitor())).failures).toEqual([]);
    expect(target.hits).toBe(hits);
  });

  it("with the report file set, writes a line per monitor without secrets and fails nothing", async () => {
    await configure({ baseUrl: s.url, apiKey: s.key, testChecks: "true" });
    const dir = mkdtempSync(join(tmpdir(), "test-checks-"));
    process.env.PULUMI_UPTIME_TEST_REPORT = join(dir, "report.jsonl");
    try {
      expect((await runtime.check("Monitor", {}, monitor())).failures).toEqual([]);
      expect(
        (await runtime.check("Monitor", {}, monitor({ connection: UNKNOWN, __dryRun: { resource: "later" } })))
          .failures,
      ).toEqual([]);
      const text = readFileSync(join(dir, "report.jsonl"), "utf8");
      expect(text).not.toMatch(/s3cret/);
      expect(
        text
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l)),
      ).toEqual([
        expect.objectContaining({
          resource: "api-health",
          outcome: "fail",
          target: `${target.url}/health`,
          failure: 'json_body $.status equals "ok": found "down"',
        }),
        expect.objectContaining({ resource: "later", outcome: "skipped", ms: null }),
      ]);
    } finally {
      delete process.env.PULUMI_UPTIME_TEST_REPORT;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
