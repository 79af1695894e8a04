import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { useServer, useStack, useTarget } from "../support/engine-suite";
import { startTarget } from "../support/target";

describe("a MonitorGroup and pulumi-uptime trigger through the real engine", () => {
  let ids: string[];
  const s = useServer();
  const web = useTarget(startTarget);
  const api = useTarget(startTarget);
  const admin = useTarget(startTarget);
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/monitor-group",
    server: s,
    config: () => ({
      intervalSec: { value: "60" },
      webUrl: { value: web.url },
      apiUrl: { value: `${api.url}/health` },
      adminUrl: { value: admin.url },
    }),
  });

  /** `pulumi-uptime <command>` of the installed package, as a pipeline step runs it. */
  const cli = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        join(REPO_ROOT, "node_modules/.bin/node"),
        [join(inject("packedModules"), "pulumi-uptime/dist/provider/commands/cli.js"), ...args],
        { env: { ...process.env, ...engine.envVars, UPTIME_API_URL: s.url, UPTIME_API_KEY: s.key }, timeout: 150_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const trigger = (...args: string[]) => cli("trigger", ...args);
  const monitor = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
  const heartbeats = async () =>
    (
      await Promise.all(ids.map(async (id) => (await s.call("GET", `/api/v1/monitors/${id}/heartbeats`)).body.data))
    ).flat();

  it("creates the group's monitors with its settings, a monitor's own value winning", async () => {
    const up = await stack.up();
    ids = up.outputs.monitorIds?.value as string[];
    expect(ids).toHaveLength(3);
    const [w, a, b] = await Promise.all(ids.map(monitor));
    expect(w).toMatchObject({ name: "shop-web", interval_sec: 60, confirmations: 2, tags: ["shop"] });
    expect(a).toMatchObject({ name: "shop-api", interval_sec: 60, confirmations: 2, tags: ["shop"] });
    expect(b).toMatchObject({ name: "shop-admin", interval_sec: 300, confirmations: 2, tags: ["back-office", "shop"] });
    const window = (await s.call("GET", `/api/v1/maintenance-windows/${up.outputs.windowId?.value}`)).body.data;
    expect([...window.monitor_ids].sort()).toEqual([...ids].sort());
    expect((await stack.preview()).changeSummary).toEqual({ same: 7 });
  });

  it("trigger --tag exits 2 while a target is down and 0 once it is fixed, storing nothing without --record", async () => {
    api.healthy = false;
    const failing = await trigger("--tag", "shop");
    expect(failing.stderr).toBe("");
    expect(failing.code).toBe(2);
    expect(failing.stdout).toMatch(/^MONITOR\s+TARGET\s+RESULT\s+FAILING ASSERTION\s+TIME/m);
    expect(failing.stdout).toMatch(
      new RegExp(`^shop-api\\s+${api.url.replace(/[.]/g, "\\.")}/health\\s+fail\\s+.*503`, "m"),
    );
    expect(failing.stdout).toMatch(/^shop-web\s+\S+\s+pass/m);
    expect(failing.stdout).toContain("tag shop: 2 pass, 1 fail.");
    api.healthy = true;
    const passing = await trigger("--tag", "shop");
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain("tag shop: 3 pass.");
    expect(await heartbeats()).toEqual([]);
    expect((await monitor(ids[1] as string)).health).toBe("pending");
  });

  it("trigger --stack names the stack's resources, and --record stores each result as a heartbeat", async () => {
    const hits = api.hits;
    const run = await trigger(
      "--stack",
      "dev",
      "--cwd",
      program.workDir,
      "--id",
      ids[1] as string,
      "--record",
      "--json",
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ passed: true, monitors: [{ resource: "shop-api", outcome: "pass" }] });
    expect(api.hits).toBe(hits + 1);
    const beats = (await s.call("GET", `/api/v1/monitors/${ids[1]}/heartbeats`)).body.data;
    expect(beats).toEqual([expect.objectContaining({ status: "up" })]);
    expect((await monitor(ids[1] as string)).health).toBe("up");
  });

  it("a bad selection is an error: exit 1 with a message naming the option", async () => {
    const none = await trigger();
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("give --stack, --tag or --id");
  });

  it("changing the group's interval updates its monitors in one up; the monitor with its own keeps it", async () => {
    await stack.setConfig("intervalSec", { value: "120" });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 2, same: 5 });
    const [w, a, b] = await Promise.all(ids.map(monitor));
    expect([w.interval_sec, a.interval_sec, b.interval_sec]).toEqual([120, 120, 300]);
    expect((await stack.preview()).changeSummary).toEqual({ same: 7 });
  });

  it("runs the CI snippet: test, preview, up, then trigger the stack's monitors of a tag", async () => {
    const tested = await cli("test", "--stack", "dev", "--cwd", program.workDir);
    expect(tested.code).toBe(0);
    expect(tested.stdout).toContain("Stack dev: 3 pass.");
    expect((await stack.preview()).changeSummary).toEqual({ same: 7 });
    await stack.up();
    const triggered = await trigger("--stack", "dev", "--cwd", program.workDir, "--tag", "shop");
    expect(triggered.code).toBe(0);
    expect(triggered.stdout).toMatch(/^shop-admin\s+\S+\s+pass/m);
    expect(triggered.stdout).toContain("Stack dev, tag shop: 3 pass.");
  });
});
