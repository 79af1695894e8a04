import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { UpOptions } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { outputValues, useServer, useStack } from "../support/engine-suite";

const HOOK_TOKEN = "hook-token-3f9a1c";
const HEADER_TOKEN = "header-token-77b2e0";

describe("Monitor, Channel and StatusPage through the real engine", () => {
  const s = useServer();
  const { stack, engine } = useStack({
    program: "test/engine/programs/uptime",
    server: s,
    config: () => ({
      hookUrl: { value: `${s.url}/hooks/${HOOK_TOKEN}`, secret: true },
      headerToken: { value: HEADER_TOKEN, secret: true },
      slug: { value: "engine-acme" },
    }),
  });

  const live = async (path: string) => (await s.call("GET", path)).body;
  // The outputs as the last `up` returned them: the tests run in order on one stack, and each change
  // of its outputs is an `up` of theirs (a `stack.outputs()` would cost two CLI runs each time).
  let deployed: ReturnType<typeof outputValues> = {};
  const up = async (options?: UpOptions) => {
    const result = await stack.up(options);
    deployed = outputValues(result.outputs);
    return result;
  };
  const outputs = () => deployed;

  it("previews with whole inputs not known yet, creates all three kinds linked to each other, and a second preview is clean", async () => {
    // channelIds, intervalSec, headers, paused and monitorIds wait for other resources' ids.
    const first = await stack.preview({ diff: true });
    expect(first.changeSummary).toMatchObject({ create: 5 });
    const created = await up({ onOutput: (l) => process.stdout.write(l) });
    expect(created.summary.resourceChanges).toMatchObject({ create: 5 });
    const out = outputs();
    const monitor = (await live(`/api/v1/monitors/${out.monitorId}`)).data;
    expect(monitor).toMatchObject({
      channel_ids: [out.channelId],
      tags: ["api", "prod"],
      headers: { "x-token": s.shownHeader(out.monitorId, "x-token", HEADER_TOKEN) },
    });
    expect((await live(`/api/v1/status-pages/${out.statusPageId}`)).data.monitor_ids).toEqual([out.monitorId]);
    expect(out.publicUrl).toBe(`${s.url}/api/status/engine-acme.json`);
    // Every output the Monitor type declares resolves, also for an input left unset.
    expect(out).toMatchObject({ monitorMethod: monitor.method, monitorTimeoutSec: monitor.timeout_sec });
    expect(["pending", "up", "down"]).toContain(out.monitorHealth);
    expect(out.monitorMethod).toBe("GET");

    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ same: 5 });
  });

  /** Fails if the backend's files, as stored, hold a secret in plaintext (an export would decrypt). */
  const expectNoPlaintextSecrets = async () => {
    const files = readdirSync(join(engine.stateDir, "backend"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
    const state = files.join("\n");
    expect(state).toContain(String(outputs().monitorId));
    for (const secret of [s.key, HOOK_TOKEN, HEADER_TOKEN]) expect(state).not.toContain(secret);
  };

  it("keeps every secret out of the state in plaintext", expectNoPlaintextSecrets);

  it("fails preview on a broken rule, naming the property, with nothing sent", async () => {
    await stack.setConfig("interval", { value: "10" });
    try {
      const err = await stack.preview().catch((e: Error) => e);
      expect(String(err)).toMatch(/intervalSec: must be between 30 and 86400/);
      expect((await live(`/api/v1/monitors/${outputs().monitorId}`)).data.interval_sec).toBe(60);
    } finally {
      await stack.removeConfig("interval");
    }
  });

  it("updates an edited monitor in place and pauses it on the server", async () => {
    const before = outputs();
    await stack.setConfig("interval", { value: "120" });
    await stack.setConfig("paused", { value: "true" });
    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ update: 1, same: 4 });
    const updated = await up();
    expect(updated.summary.resourceChanges).toMatchObject({ update: 1, same: 4 });
    const after = outputs();
    expect(after.monitorId).toBe(before.monitorId);
    expect((await live(`/api/v1/monitors/${after.monitorId}`)).data).toMatchObject({
      interval_sec: 120,
      status: "paused",
    });
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
  });

  it("preview --refresh reports a monitor edited and resumed outside Pulumi; refresh + up restore it", async () => {
    const { monitorId } = outputs();
    await s.call("PATCH", `/api/v1/monitors/${monitorId}`, { name: "edited by hand", interval_sec: 900 });
    await s.call("POST", `/api/v1/monitors/${monitorId}/resume`);
    const drift = await stack.preview({ refresh: true, diff: true });
    expect(drift.changeSummary.update).toBe(1);
    // The diff shows what differs, and none of the fields the program leaves at their defaults.
    expect(drift.stdout).toMatch(/~ intervalSec\s*: 900 => 120/);
    expect(drift.stdout).toMatch(/~ name\s*: "edited by hand" => "api"/);
    expect(drift.stdout).not.toMatch(
      /^\s*[-+~] (confirmations|followRedirects|expectedStatusCodes|timeoutSec|verifyTls|method)\b/m,
    );
    await stack.refresh();
    await expectNoPlaintextSecrets();
    await up();
    expect((await live(`/api/v1/monitors/${monitorId}`)).data).toMatchObject({
      name: "api",
      interval_sec: 120,
      status: "paused",
    });
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 5 });
  });

  it("after a refresh, an unchanged program and one that ignores headers change nothing; the live headers stay", async () => {
    const { monitorId, channelId } = outputs();
    const before = {
      monitor: (await live(`/api/v1/monitors/${monitorId}`)).data,
      channel: (await live(`/api/v1/channels/${channelId}`)).data,
    };
    await stack.refresh();
    await expectNoPlaintextSecrets();
    expect((await stack.preview({ diff: true })).changeSummary).toEqual({ same: 5 });
    await stack.setConfig("ignoreHeaders", { value: "true" });
    try {
      expect((await stack.preview({ diff: true })).changeSummary).toEqual({ same: 5 });
      expect((await up()).summary.resourceChanges).toEqual({ same: 5 });
    } finally {
      await stack.removeConfig("ignoreHeaders");
    }
    expect((await up()).summary.resourceChanges).toEqual({ same: 5 });
    expect((await live(`/api/v1/monitors/${monitorId}`)).data).toMatchObject({
      headers: before.monitor.headers,
      updated_at: before.monitor.updated_at,
    });
    expect((await live(`/api/v1/channels/${channelId}`)).data).toEqual(before.channel);
    expect(before.monitor.headers).toEqual({ "x-token": s.shownHeader(monitorId, "x-token", HEADER_TOKEN) });
    // Five engine runs: more than the default timeout on a loaded machine.
  }, 600_000);

  it("replaces a monitor whose type changes, keeping its links", async () => {
    const before = outputs();
    await stack.setConfig("monitorType", { value: "keyword" });
    const preview = await stack.preview();
    expect(preview.changeSummary).toMatchObject({ replace: 1 });
    await up();
    const after = outputs();
    expect(after.monitorId).not.toBe(before.monitorId);
    expect((await live(`/api/v1/monitors/${before.monitorId}`)).error.code).toBe("not_found");
    expect((await live(`/api/v1/status-pages/${after.statusPageId}`)).data.monitor_ids).toEqual([after.monitorId]);
  });

  it("destroy leaves the server empty", async () => {
    await stack.destroy();
    expect((await live("/api/v1/monitors")).data).toEqual([]);
    expect((await live("/api/v1/channels")).data).toEqual([]);
    expect((await live("/api/v1/status-pages")).data).toEqual([]);
  });
});
