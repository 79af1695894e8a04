/**
 * A deploy service on the Automation API, as teams run one: one Node process that runs `up`,
 * `preview`, `refresh` and `destroy` of inline programs for several stacks (Pulumi's own
 * automation-api-examples do the same). The service is a plain script in a fresh project whose
 * node_modules is the packed package's installation; it prints what became of each operation.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { useEngine, useServer } from "../support/engine-suite";

const run = promisify(execFile);

type Operation = { label: string; outcome: "ok" | "error" | "hang"; changes?: unknown; error?: string };

describe("a deploy service runs several operations and stacks in one process", () => {
  let project: string;
  const s = useServer();
  const engine = useEngine();

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), "deploy-service-"));
    cpSync(join(REPO_ROOT, "test/engine/programs/deploy-service"), project, { recursive: true });
    symlinkSync(inject("packedModules"), join(project, "node_modules"), "dir");
  });
  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  /** Runs one scenario of the service in a process of its own; its operations, by label. */
  async function service(scenario: string): Promise<Record<string, Operation>> {
    const { stdout } = await run(process.execPath, ["service.js", scenario], {
      cwd: project,
      env: {
        ...process.env,
        ...engine.envVars,
        PULUMI_BIN: engine.binDir,
        UPTIME_URL: s.url,
        UPTIME_KEY: s.key,
        OPERATION_LIMIT_MS: "120000",
      },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    });
    const ops = stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Operation);
    return Object.fromEntries(ops.map((o) => [o.label, o]));
  }

  const tagged = async () =>
    ((await s.call("GET", "/api/v1/monitors?limit=200")).body.data as { tags: string[] }[]).filter((m) =>
      m.tags.includes("deploy-service"),
    );

  it("up, preview, up, refresh and destroy of one stack: each sees the stack as the last one left it", async () => {
    const ops = await service("lifecycle");
    expect(ops["up"]).toMatchObject({ outcome: "ok", changes: { create: 4 } });
    // The stack identity belongs to each operation: preview plans no delete of it.
    expect(ops["preview"]).toMatchObject({ outcome: "ok", changes: { same: 4 } });
    expect(ops["up again"]).toMatchObject({ outcome: "ok", changes: { same: 4 } });
    expect(ops["refresh"]).toMatchObject({ outcome: "ok" });
    expect(ops["preview after refresh"]).toMatchObject({ outcome: "ok", changes: { same: 4 } });
    expect(ops["destroy"]).toMatchObject({ outcome: "ok", changes: { delete: 4 } });
    expect(await tagged()).toEqual([]);
  });

  it("two stacks of one inline program, at once, each with its own identity and objects", async () => {
    const ops = await service("two-stacks");
    expect(ops["up both at once"]).toMatchObject({ outcome: "ok", changes: [{ create: 4 }, { create: 4 }] });
    expect(ops["preview blue"]).toMatchObject({ outcome: "ok", changes: { same: 4 } });
    expect(ops["preview green"]).toMatchObject({ outcome: "ok", changes: { same: 4 } });
    expect(ops["destroy both"]).toMatchObject({ outcome: "ok" });
    expect(await tagged()).toEqual([]);
  });

  it("an operation after a failed one runs normally", async () => {
    const ops = await service("after-failure");
    expect(ops["failing up"]).toMatchObject({
      outcome: "error",
      error: expect.stringContaining("the program failed on purpose"),
    });
    // The failed run left the stack resource in state; the next creates the identity and the monitors.
    expect(ops["up"]).toMatchObject({ outcome: "ok", changes: { create: 3, same: 1 } });
    expect(ops["preview"]).toMatchObject({ outcome: "ok", changes: { same: 4 } });
    expect(ops["destroy"]).toMatchObject({ outcome: "ok" });
    expect(await tagged()).toEqual([]);
  });

  it("an inline program whose folder has no @pulumi/pulumi fails at once, and the next operation runs", async () => {
    const ops = await service("no-sdk-folder");
    // Pulumi's own limit for every dynamic provider (the docs' Automation API guide says to set workDir).
    expect(ops["up in a folder without the SDK"]).toMatchObject({
      outcome: "error",
      error: expect.stringContaining("Cannot find module '@pulumi/pulumi/cmd/dynamic-provider'"),
    });
    expect(ops["up"]).toMatchObject({ outcome: "ok" });
    expect(ops["up"]?.changes).toMatchObject({ create: expect.any(Number) });
    expect(ops["destroy"]).toMatchObject({ outcome: "ok" });
    expect(await tagged()).toEqual([]);
  });
});
