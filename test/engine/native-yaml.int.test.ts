import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";
import { expectNotInState, type NativeEngine, nativeEngine } from "./native";

const HOOK_TOKEN = "yaml-hook-token-5d1e7a";
const HEADER_TOKEN = "yaml-header-token-c40b9f";

describe("a YAML program through the native plugin", () => {
  let s: TestServer;
  let native: NativeEngine;
  let stack: Stack;

  const live = async (path: string) => (await s.call("GET", path)).body;
  const outputs = async () => Object.fromEntries(Object.entries(await stack.outputs()).map(([k, v]) => [k, v.value]));

  beforeAll(async () => {
    s = await startServer();
    native = await nativeEngine();
    stack = await native.engine.stack(native.program("native-yaml"));
    await stack.setAllConfig({
      "uptime:baseUrl": { value: s.url },
      "uptime:apiKey": { value: s.key, secret: true },
      hookUrl: { value: `${s.url}/hooks/${HOOK_TOKEN}`, secret: true },
      headerToken: { value: HEADER_TOKEN, secret: true },
    });
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    native?.dispose();
    await s?.close();
  });

  it("deploys a channel and a monitor, and a second preview is clean", async () => {
    const up = await stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
    const out = await outputs();
    expect((await live(`/api/v1/monitors/${out.monitorId}`)).data).toMatchObject({
      name: "api",
      interval_sec: 60,
      headers: { "x-token": HEADER_TOKEN },
      expected_status_codes: [200, "3xx"],
      channel_ids: [out.channelId],
      tags: ["api", "prod"],
    });
    expect((await stack.preview()).changeSummary).toEqual({ same: 3 });
  });

  it("keeps the API key, webhook URL and header secret in state", async () => {
    expectNotInState(native.engine, String((await outputs()).monitorId), [s.key, HOOK_TOKEN, HEADER_TOKEN]);
  });

  it("reports a monitor edited outside Pulumi; refresh + up restore it", async () => {
    const { monitorId } = await outputs();
    await s.call("PATCH", `/api/v1/monitors/${monitorId}`, { interval_sec: 900, tags: ["edited"] });
    expect((await stack.preview({ refresh: true })).changeSummary).toMatchObject({ update: 1 });
    await stack.refresh();
    await stack.up();
    expect((await live(`/api/v1/monitors/${monitorId}`)).data).toMatchObject({ interval_sec: 60, tags: ["api", "prod"] });
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 3 });
    expectNotInState(native.engine, String(monitorId), [s.key, HOOK_TOKEN, HEADER_TOKEN]);
  });

  it("imports a monitor, a channel and a status page made through the REST API; after one config write (a no-op on the server) the preview is clean", async () => {
    const hookUrl = `${s.url}/hooks/${HOOK_TOKEN}-import`;
    const monitor = (
      await s.call("POST", "/api/v1/monitors", {
        name: "made by hand",
        type: "keyword",
        url: "https://example.com/",
        interval_sec: 300,
        keyword: "Example Domain",
        tags: ["legacy"],
      })
    ).body.data;
    const channel = (await s.call("POST", "/api/v1/channels", { name: "oncall", type: "webhook", config: { url: hookUrl } })).body.data;
    const page = (await s.call("POST", "/api/v1/status-pages", { slug: "legacy-status", title: "Legacy status", monitor_ids: [monitor.id] }))
      .body.data;
    const workDir = native.program("native-import");
    const imported = await native.engine.stack(workDir, "import");
    try {
      await imported.setAllConfig({
        "uptime:baseUrl": { value: s.url },
        "uptime:apiKey": { value: s.key, secret: true },
        hookUrl: { value: hookUrl, secret: true },
      });
      const file = join(workDir, "import.json");
      const resources = [
        { type: "uptime:index:Monitor", name: "legacy", id: monitor.id },
        { type: "uptime:index:Channel", name: "oncall", id: channel.id },
        { type: "uptime:index:StatusPage", name: "public", id: page.id },
      ];
      writeFileSync(file, JSON.stringify({ resources }));
      await native.pulumi(["import", "--file", file, "--yes", "--protect=false", "--stack", "import"], workDir);
      // Reads mask a channel's config and the server keys its fingerprint, so an imported channel
      // cannot be verified: its config shows as one update. That update writes the declared config,
      // which the server already holds, so it writes nothing; then the record is exact.
      expect((await imported.preview()).changeSummary).toEqual({ same: 3, update: 1 });
      const channelBefore = (await live(`/api/v1/channels/${channel.id}`)).data;
      expect((await imported.up()).summary.resourceChanges).toEqual({ same: 3, update: 1 });
      expect((await live(`/api/v1/channels/${channel.id}`)).data).toEqual(channelBefore);
      expect((await imported.preview()).changeSummary).toEqual({ same: 4 });
      expectNotInState(native.engine, monitor.id, [s.key, HOOK_TOKEN]);
      await imported.destroy();
      expect((await live(`/api/v1/monitors/${monitor.id}`)).error.code).toBe("not_found");
      expect((await live(`/api/v1/channels/${channel.id}`)).error.code).toBe("not_found");
    } finally {
      await imported.workspace.removeStack("import", { force: true }).catch(() => undefined);
    }
  });

  it("destroy removes both objects from the server", async () => {
    await stack.destroy();
    expect((await live("/api/v1/monitors")).data).toEqual([]);
    expect((await live("/api/v1/channels")).data).toEqual([]);
  });
});
