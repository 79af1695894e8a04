import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { startUptimeServer, type UptimeServer } from "pulumi-uptime-server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Only the API's object routes are faulted; every fault below is one the provider must ride out.
const objects = (_method: string, path: string) => /^\/api\/v1\/(monitors|channels|status-pages)/.test(path);

describe("the program against a real uptime server with faults", () => {
  let server: UptimeServer;
  let stack: Stack;
  const backend = mkdtempSync(join(tmpdir(), "uptime-example-backend-"));

  beforeAll(async () => {
    server = await startUptimeServer();
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "test", workDir: join(__dirname, "..") },
      { envVars: { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "test", PULUMI_SKIP_UPDATE_CHECK: "true" } },
    );
    await stack.setAllConfig({
      "uptime:baseUrl": { value: server.url },
      "uptime:apiKey": { value: server.apiKey, secret: true },
      siteUrl: { value: "https://www.example.com" },
    });
  });
  afterAll(async () => {
    await stack?.workspace.removeStack("test", { force: true }).catch(() => undefined);
    await server?.close();
    rmSync(backend, { recursive: true, force: true });
  });

  it("deploys through 429 bursts, 5xx, latency and a dropped response", async () => {
    server.faults.latency(20, objects);
    server.faults.rateLimitBurst(3, { match: objects });
    server.faults.serverErrors(0.2, { match: objects });
    server.faults.dropResponses(1, { match: (m, p) => m === "GET" && objects(m, p) });
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 6 });
    expect(server.faults.requests.some((r) => r.endsWith(" 429"))).toBe(true);
    server.faults.clear();
    expect((await stack.preview()).changeSummary).toEqual({ same: 6 });
  });

  it("repairs a monitor changed and paused behind Pulumi's back", async () => {
    const id = (await stack.outputs()).homepageId?.value as string;
    await server.drift.patchMonitor(id, { interval_sec: 900 });
    await server.drift.pauseMonitor(id);
    await stack.refresh();
    const fix = await stack.up();
    expect(fix.summary.resourceChanges).toEqual({ update: 1, same: 5 });
    const res = await fetch(`${server.url}/api/v1/monitors/${id}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const live = ((await res.json()) as { data: { interval_sec: number; status: string } }).data;
    expect([live.interval_sec, live.status]).toEqual([300, "active"]);
  });

  it("recreates a monitor deleted behind Pulumi's back, then destroys everything", async () => {
    const id = (await stack.outputs()).homepageId?.value as string;
    await server.drift.deleteMonitor(id);
    await stack.refresh();
    const again = await stack.up();
    expect(again.summary.resourceChanges?.create).toBe(1);
    await stack.destroy();
    const res = await fetch(`${server.url}/api/v1/monitors`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
  });
});
