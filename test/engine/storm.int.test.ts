import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";

const MONITORS = 60;

describe("pulumi up through a storm of faults", () => {
  let proxy: FaultProxy;
  let accountId: string;
  const s = useServer();
  beforeAll(async () => {
    accountId = (await s.app.store.keys.authenticate(s.key))?.accountId as string;
    proxy = await startFaultProxy(s.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  const { stack } = useStack({
    program: "test/engine/programs/fleet",
    server: s,
    config: () => ({
      "uptime:baseUrl": { value: proxy.url },
      monitors: { value: String(MONITORS) },
      withLinks: { value: "true" },
      slug: { value: "storm" },
    }),
  });
  // The destroy at the end goes through the proxy too: without the storm.
  afterAll(() => {
    if (proxy) proxy.storm = undefined;
  });

  /** The live objects, read from the server's store (not through the storm). */
  const live = async () => ({
    monitors: (await s.app.store.monitors.list(accountId, { limit: 1000 })).items,
    channels: (await s.app.store.channels.list(accountId, 1000)).items,
    pages: (await s.app.store.statusPages.list(accountId, 1000)).items,
  });

  it(`creates ${MONITORS} monitors, 2 channels and a status page once each; preview --refresh is clean`, async () => {
    // Per request: 20% 5xx (half after the server did the work), 10% start a burst of three 429s,
    // 10% connections cut after the work (writes go in batches, so fewer requests meet the storm),
    // 0..1 s of latency.
    proxy.storm = {
      seed: 7,
      serverError: 0.2,
      rateLimitBurst: 0.1,
      burstLength: 3,
      resetAfterForward: 0.1,
      maxLatencyMs: 1000,
    };
    let started = performance.now();
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    const upSeconds = Math.round((performance.now() - started) / 1000);

    const { monitors, channels, pages } = await live();
    const deployment = (await stack.exportStack()).deployment as { resources?: { id?: string; type: string }[] };
    const stateIds = (kind: string) =>
      (deployment.resources ?? [])
        .filter((r) => r.type.endsWith(`uptime:${kind}`))
        .map((r) => r.id)
        .sort();
    expect({ monitors: monitors.length, channels: channels.length, pages: pages.length }).toEqual({
      monitors: MONITORS,
      channels: 2,
      pages: 1,
    });
    expect(new Set(monitors.map((m) => m.name)).size).toBe(MONITORS);
    expect(stateIds("Monitor")).toEqual(monitors.map((m) => m.id).sort());
    expect(stateIds("Channel")).toEqual(channels.map((c) => c.id).sort());
    expect(stateIds("StatusPage")).toEqual(pages.map((p) => p.id));

    started = performance.now();
    const preview = await stack.preview({ refresh: true });
    expect(preview.changeSummary).toEqual({ same: MONITORS + 5 });
    const previewSeconds = Math.round((performance.now() - started) / 1000);
    console.table({ ...proxy.counts, duplicates: monitors.length - MONITORS, upSeconds, previewSeconds });
    expect(proxy.counts.serverErrors + proxy.counts.serverErrorsAfterWork).toBeGreaterThan(0);
    expect(proxy.counts.resets).toBeGreaterThan(0);
    expect(proxy.counts.rateLimited).toBeGreaterThan(0);
  });
});
