import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { OPERATIONS } from "../../server/http/openapi-operations";
import { startServer, type TestServer } from "../support/server";

const run = promisify(execFile);

describe("the OpenAPI document under real tooling", () => {
  let s: TestServer;
  let doc: {
    paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
    servers?: unknown[];
    info: { license?: unknown };
  };
  const dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-openapi-"));
  beforeAll(async () => {
    s = await startServer();
    doc = (await s.call("GET", "/api/v1/openapi.json", undefined, { key: null })).body;
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives every operation the stable operationId and the summary of its table, unique, and a server and a license", () => {
    const seen = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        key: `${method.toUpperCase()} ${path}`,
        id: op.operationId,
        summary: op.summary,
      })),
    );
    expect(seen.map((o) => o.key).sort()).toEqual(Object.keys(OPERATIONS).sort());
    for (const o of seen) expect([o.id, o.summary], o.key).toEqual(OPERATIONS[o.key]);
    expect(new Set(seen.map((o) => o.id)).size).toBe(seen.length);
    expect(doc.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: "Apache-2.0", identifier: "Apache-2.0" });
  });

  it("passes Redocly's recommended lint with no errors", async () => {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    const redocly = join(REPO_ROOT, "node_modules", ".bin", "redocly");
    const { stdout } = await run(redocly, ["lint", file, "--format=json", "--max-problems=1000"], {
      encoding: "utf8",
      maxBuffer: 32 << 20,
    }).catch((err: { stdout: string }) => err);
    const problems = (JSON.parse(stdout) as { problems: { ruleId: string; severity: string; message: string }[] })
      .problems;
    const errors = problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId}: ${p.message}`);
    expect(errors).toEqual([]);
    // Warnings left (printed for review): unused input copies of schemas, inline discriminator variants.
    process.stderr.write(`redocly warnings: ${problems.length - errors.length}\n`);
  });
});
