import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";
import { expectNotInState, type NativeEngine, nativeEngine } from "./native";

const HOOK_TOKEN = "py-hook-token-8e2f61";
const HEADER_TOKEN = "py-header-token-1a9d3c";

describe("a Python program through the native plugin and its generated SDK", () => {
  let s: TestServer;
  let native: NativeEngine;
  let stack: Stack;

  const live = async (path: string) => (await s.call("GET", path)).body;
  const outputs = async () => Object.fromEntries(Object.entries(await stack.outputs()).map(([k, v]) => [k, v.value]));

  beforeAll(async () => {
    s = await startServer();
    native = await nativeEngine({ python: true });
    stack = await native.engine.stack(native.program("native-python"));
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

  it("destroy removes both objects from the server", async () => {
    await stack.destroy();
    expect((await live("/api/v1/monitors")).data).toEqual([]);
    expect((await live("/api/v1/channels")).data).toEqual([]);
  });
});
