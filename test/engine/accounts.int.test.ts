import type { UpOptions } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { outputValues, useServer, useStack } from "../support/engine-suite";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import { stackInstanceOf } from "./killed-up";

/** The stack's instance, read from state after the first `up` (see provider/runtime/identity.ts). */
let instance = "";
const mark = (name: string) => `pulumi/uptime-accounts-test/dev/${instance}/Monitor/${name}`;

/**
 * Three monitors on a per-resource connection, through the real engine and the packed package:
 * `pulumi up --replace`, another spelling of the service URL, connection check failures,
 * customTimeouts, and a key rotated and revoked.
 */
describe("replacement, endpoints, credentials and time limits through the real engine", () => {
  let firstKey: { key: string; info: { id: string } };
  const s = useServer();
  beforeAll(async () => {
    firstKey = await s.app.store.keys.create("dev", "first");
  });
  // The connection is the resources' own (see the program), not the provider's config.
  const { stack } = useStack({
    program: "test/engine/programs/accounts",
    config: () => ({ serviceUrl: { value: s.url }, monitorKey: { value: firstKey.key, secret: true } }),
  });

  type Live = { id: string; url: string; interval_sec: number; external_id: string | null };
  const liveMonitors = async () => (await s.call("GET", "/api/v1/monitors")).body.data as Live[];
  type Outputs = { ids: string[]; urns: string[]; endpoints: string[] };
  // The outputs as the last successful `up` returned them: the tests run in order on one stack, and
  // each change of its outputs is an `up` of theirs (a `stack.outputs()` would be two CLI runs).
  let deployed: Outputs;
  const up = async (options?: UpOptions) => {
    const result = await stack.up(options);
    deployed = outputValues(result.outputs) as Outputs;
    return result;
  };
  const failure = (run: Promise<unknown>) =>
    run.then(
      () => "",
      (e: Error) => String(e),
    );

  it("creates three monitors on the resource's connection", async () => {
    const created = await up();
    // The monitors, the stack and its identity resource.
    expect(created.summary.resourceChanges).toMatchObject({ create: 5 });
    instance = await stackInstanceOf(stack);
    expect((await liveMonitors()).map((m) => m.external_id).sort()).toEqual(["a", "b", "c"].map(mark));
  });

  it("`pulumi up --replace` deletes first: one live monitor for it, the one in state, with its inputs", async () => {
    const before = deployed;
    const replaced = await up({ replace: [before.urns[0] as string] });
    expect(replaced.summary.resourceChanges).toMatchObject({ replace: 1, same: 4 });
    const after = deployed;
    expect(after.ids[0]).not.toBe(before.ids[0]);
    const live = await liveMonitors();
    const forA = live.filter((m) => m.external_id === mark("a"));
    expect(forA).toEqual([
      expect.objectContaining({ id: after.ids[0], url: "https://a.example.com/health", interval_sec: 60 }),
    ]);
    expect(live.map((m) => m.id).sort()).toEqual([...after.ids].sort());
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
  });

  it("another spelling of the service URL updates the recorded endpoint in place, replacing nothing", async () => {
    const before = deployed;
    const port = new URL(s.url).port;
    await stack.setConfig("serviceUrl", { value: `HTTP://LOCALHOST:${port}/` });
    expect((await stack.preview()).changeSummary).toEqual({ update: 3, same: 2 });
    await up();
    const after = deployed;
    expect(after.ids).toEqual(before.ids);
    expect(after.endpoints).toEqual(Array(3).fill(`http://localhost:${port}`));
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
  });

  it("preview fails on plain http to another host and on a missing URL, naming `connection` and where to set it", async () => {
    await stack.setConfig("serviceUrl", { value: "http://uptime.example.com" });
    const insecure = await failure(stack.preview());
    expect(insecure).toMatch(
      /property connection .* has a problem: baseUrl \(from the resource's `connection.baseUrl`\) is plain http:\/\/ to uptime\.example\.com/,
    );
    expect(insecure).toMatch(/uptime:allowInsecureHttp/);
    await stack.removeConfig("serviceUrl");
    const missing = await failure(stack.preview());
    expect(missing).toMatch(
      /property connection .* has a problem: No service URL: set the stack config `pulumi config set uptime:baseUrl/,
    );
    expect(missing).toMatch(/UPTIME_API_URL/);
    await stack.setConfig("serviceUrl", { value: `http://localhost:${new URL(s.url).port}` });
    expect(await failure(stack.preview())).toBe("");
  });

  it("customTimeouts end an update that a stalling service keeps refusing, naming the limit", async () => {
    let proxy: FaultProxy | undefined;
    try {
      proxy = await startFaultProxy(s.url);
      // Updates: single PATCHes, or batches of them against a server with batched writes (this one).
      proxy.faults.push({
        times: Infinity,
        status: 503,
        match: (m, path) => m === "PATCH" || (m === "POST" && path.endsWith("/batch")),
      });
      await stack.setAllConfig({
        serviceUrl: { value: proxy.url },
        timeout: { value: "3s" },
        interval: { value: "120" },
      });
      const started = Date.now();
      const err = await failure(up());
      expect(err).toMatch(
        /could not be updated: uptime API timeout.*gave up after 3s \(customTimeouts\.update\) while (retrying|waiting for the answer to) PATCH/,
      );
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      await stack.setConfig("serviceUrl", { value: `http://localhost:${new URL(s.url).port}` });
      await stack.removeConfig("timeout");
      await stack.removeConfig("interval");
      await proxy?.close();
    }
    await up();
    expect((await liveMonitors()).map((m) => m.interval_sec)).toEqual([60, 60, 60]);
  });

  it("a rotated and revoked key: `up` updates in place, then refresh and destroy succeed", async () => {
    const before = deployed;
    const rotated = await s.app.store.keys.create("dev", "rotated");
    expect(await s.app.store.keys.revoke(firstKey.info.id)).toBe(true);
    await stack.setConfig("monitorKey", { value: rotated.key, secret: true });
    const updated = await up();
    expect(updated.summary.resourceChanges).toEqual({ update: 3, same: 2 });
    expect(deployed.ids).toEqual(before.ids);
    await stack.refresh();
    await stack.destroy();
    expect(await liveMonitors()).toEqual([]);
  });
});
