import { describe, expect, it } from "vitest";
import { outputValues, useServer, useStack } from "../support/engine-suite";
import { expectNotInState } from "./native";

const HOOK_TOKEN = "java-hook-token-7f3a21";
const HEADER_TOKEN = "java-header-token-b81c4e";

// examples/native-java: a Maven program run by pulumi-java's language host, with the generated
// Java SDK from the project's Maven repository (Maven offline).
describe("a Java program through the native plugin and its generated Java SDK", () => {
  const s = useServer();
  const { stack, native } = useStack({
    program: "examples/native-java",
    native: { java: true },
    server: s,
    config: () => ({
      hookUrl: { value: `${s.url}/hooks/${HOOK_TOKEN}`, secret: true },
      headerToken: { value: HEADER_TOKEN, secret: true },
    }),
  });

  const live = async (path: string) => (await s.call("GET", path)).body;
  /** The outputs the first `up` returned: the later tests change no output (a `stack.outputs()` is two CLI runs). */
  let out: ReturnType<typeof outputValues> = {};

  it("deploys a channel, a monitor with a secret header, a multi-step monitor and a status page; a second preview is clean", async () => {
    const up = await stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
    out = outputValues(up.outputs);
    expect((await live(`/api/v1/monitors/${out.monitorId}`)).data).toMatchObject({
      name: "api",
      type: "http",
      interval_sec: 60,
      headers: { "x-token": s.shownHeader(out.monitorId, "x-token", HEADER_TOKEN) },
      expected_status_codes: [200, "3xx"],
      assertions: [{ source: "json_body", property: "$.status", comparison: "equals", target: "ok" }],
      channel_ids: [out.channelId],
      tags: ["api", "prod"],
    });
    const journey = (await live(`/api/v1/monitors/${out.journeyId}`)).data;
    expect(journey).toMatchObject({
      name: "journey",
      type: "multistep",
      retry: { strategy: "exponential", delay: 200, retries: 3 },
    });
    expect(journey.steps).toMatchObject([
      {
        name: "log in",
        method: "POST",
        extract: [{ name: "token", source: "json_body", property: "$.token", secret: true }],
      },
      { name: "profile", url: "https://example.com/me" },
    ]);
    const page = (await live(`/api/v1/status-pages/${out.statusPageId}`)).data;
    expect(page).toMatchObject({ slug: "api-status", title: "API status" });
    expect([...page.monitor_ids].sort()).toEqual([out.monitorId, out.journeyId].sort());
    // A function of the SDK (the plugin's Invoke) found the monitor the program made.
    expect(out.monitorUrl).toBe("https://example.com/health");
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
  }, 480_000);

  it("keeps the API key, the webhook URL and the header secret out of the state file", async () => {
    expectNotInState(native.engine, String(out.monitorId), [s.key, HOOK_TOKEN, HEADER_TOKEN]);
  });

  it("refresh finds a change made through the API, and up restores the program's values", async () => {
    const { monitorId } = out;
    await s.call("PATCH", `/api/v1/monitors/${monitorId}`, { interval_sec: 900 });
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await stack.preview()).changeSummary).toMatchObject({ update: 1 });
    await stack.up();
    expect((await live(`/api/v1/monitors/${monitorId}`)).data.interval_sec).toBe(60);
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 5 });
  }, 480_000);

  it("destroy leaves nothing on the server", async () => {
    await stack.destroy();
    expect((await live("/api/v1/monitors")).data).toEqual([]);
    expect((await live("/api/v1/channels")).data).toEqual([]);
    expect((await live("/api/v1/status-pages")).data).toEqual([]);
  });
});
