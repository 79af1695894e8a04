import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import type { ApiAnswer, TestServer } from "../support/server";
import { diffedProperties } from "./diff-output";
import { stackInstanceOf } from "./killed-up";
import { expectNotInState, type NativeEngine } from "./native";

export interface NativeProgramOptions {
  /**
   * A program that declares a channel and a monitor: a name under test/engine/programs, or a path
   * from the repository root.
   */
  program: string;
  /** Builds the Python SDK into the venv first. */
  python?: boolean;
  /** Builds the Go SDK module and puts the Go language host on PATH. */
  go?: boolean;
  /** Builds the Node.js SDK and installs it into the program. */
  nodejs?: boolean;
  /**
   * `false` leaves out the drift test (about a minute): the plugin's drift handling does not
   * depend on the language, so one SDK's program may skip it to keep the suite within its time.
   */
  drift?: boolean;
  /** Secrets the program receives through config, which must never be in state. */
  hookToken: string;
  headerToken: string;
}

/**
 * A stack `name` of a fresh copy of the native program `program` on the context's engine, its
 * provider connected to the context's server, with `config` besides: for a test's own stack (an
 * import), which the test removes.
 */
export async function connectedStack(
  ctx: NativeProgramContext,
  program: string,
  name: string,
  config: ConfigMap = {},
): Promise<{ workDir: string; stack: Stack }> {
  const workDir = ctx.native.program(program);
  const stack = await ctx.native.engine.stack(workDir, name);
  await stack.setAllConfig({
    "uptime:baseUrl": { value: ctx.s.url },
    "uptime:apiKey": { value: ctx.s.key, secret: true },
    ...config,
  });
  return { workDir, stack };
}

/**
 * The monitor the import programs (native-import, native-python-import) declare as `legacy`, as a
 * body of the REST API: made by hand before the program imports it.
 */
export const HAND_MADE_MONITOR = {
  name: "made by hand",
  type: "keyword",
  url: "https://example.com/",
  interval_sec: 300,
  keyword: "Example Domain",
  tags: ["legacy"],
} as const;

/** What a language's own tests work with, once `beforeAll` has run. */
export interface NativeProgramContext {
  s: TestServer;
  native: NativeEngine;
  /** The program's stack, deployed by the shared tests. */
  stack: Stack;
  /** The body of a GET on the server. */
  live(path: string): Promise<ApiAnswer["body"]>;
}

/**
 * The tests every language runs against the native plugin: deploy, a clean second preview,
 * secrets kept out of state, drift repaired by refresh + up, then destroy. `more` adds the
 * language's own tests before the destroy.
 */
export function describeNativeProgram(
  title: string,
  options: NativeProgramOptions,
  more?: (ctx: NativeProgramContext) => void,
): void {
  describe(title, () => {
    const s = useServer();
    const { stack, native } = useStack({
      program: options.program,
      native: { python: options.python, go: options.go, nodejs: options.nodejs },
      server: s,
      config: () => ({
        hookUrl: { value: `${s.url}/hooks/${options.hookToken}`, secret: true },
        headerToken: { value: options.headerToken, secret: true },
      }),
    });

    const live = async (path: string) => (await s.call("GET", path)).body;
    const outputs = async () => Object.fromEntries(Object.entries(await stack.outputs()).map(([k, v]) => [k, v.value]));

    it("deploys a channel, a monitor, a status page and a maintenance window, calls every function, and a second preview is clean", async () => {
      const up = await stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
      const out = await outputs();
      // The program's functions (the plugin's Invoke) found what it created.
      expect(out.lookups).toEqual({
        monitorUrl: "https://example.com/health",
        channelType: "webhook",
        pageTitle: "API status",
        windowTimeZone: "Europe/Berlin",
        statsMonitorId: out.monitorId,
        heartbeats: expect.any(Array),
        documentTitle: "API status",
      });
      expect((await live(`/api/v1/monitors/${out.monitorId}`)).data).toMatchObject({
        name: "api",
        interval_sec: 60,
        headers: { "x-token": s.shownHeader(out.monitorId, "x-token", options.headerToken) },
        expected_status_codes: [200, "3xx"],
        assertions: [
          { source: "json_body", property: "$.status", comparison: "equals", target: "ok" },
          { source: "response_time", comparison: "less_than", target: "2000" },
        ],
        degraded_response_ms: 1000,
        channel_ids: [out.channelId],
        tags: ["api", "prod"],
      });
      // Marked like the dynamic resources' objects, with the instance kept in the provider's inputs.
      const project = (await stack.workspace.projectSettings()).name;
      const instance = await stackInstanceOf(stack);
      expect((await live(`/api/v1/monitors/${out.monitorId}`)).data.external_id).toBe(
        `pulumi/${project}/dev/${instance}/Monitor/api`,
      );
      expect((await live(`/api/v1/channels/${out.channelId}`)).data.external_id).toBe(
        `pulumi/${project}/dev/${instance}/Channel/hooks`,
      );
      expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
    });

    it("keeps the API key, webhook URL and header secret in state", async () => {
      expectNotInState(native.engine, String((await outputs()).monitorId), [
        s.key,
        options.hookToken,
        options.headerToken,
      ]);
    });

    // Programs whose drift is checked elsewhere do not register this test (no skipped test in the count).
    if (options.drift !== false)
      it("reports a monitor edited outside Pulumi, naming only the properties that drifted; refresh + up restore it", async () => {
        const { monitorId } = await outputs();
        await s.call("PATCH", `/api/v1/monitors/${monitorId}`, { interval_sec: 900, tags: ["edited"] });
        await s.call("POST", `/api/v1/monitors/${monitorId}/pause`);
        const drift = await stack.preview({ refresh: true, diff: true });
        expect(drift.changeSummary).toMatchObject({ update: 1 });
        expect(diffedProperties(drift.stdout, "api")).toEqual(["intervalSec", "paused", "tags"]);
        await stack.refresh();
        expect(diffedProperties((await stack.preview({ diff: true })).stdout, "api")).toEqual([
          "intervalSec",
          "paused",
          "tags",
        ]);
        await stack.up();
        expect((await live(`/api/v1/monitors/${monitorId}`)).data).toMatchObject({
          interval_sec: 60,
          tags: ["api", "prod"],
          status: expect.not.stringMatching(/^paused$/),
        });
        expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 5 });
        expectNotInState(native.engine, String(monitorId), [s.key, options.hookToken, options.headerToken]);
      });

    more?.({ s, native, stack, live });

    it("destroy removes both objects from the server", async () => {
      await stack.destroy();
      expect((await live("/api/v1/monitors")).data).toEqual([]);
      expect((await live("/api/v1/channels")).data).toEqual([]);
    });
  });
}
