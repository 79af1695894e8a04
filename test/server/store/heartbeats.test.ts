import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toMonitorSpec } from "../../../api";
import type { Store } from "../../../server/index";
import { ENGINES, openTestStore } from "../../support/store-engines";

const DAY = 86_400_000;
const MIDNIGHT = Date.UTC(2026, 10, 20);

describe.each(ENGINES)("heartbeat stats (%s)", (engine) => {
  let store: Store;
  let monitorId: string;
  beforeEach(async () => {
    store = await openTestStore(engine);
    const { key } = await store.keys.create("acme", null);
    const accountId = (await store.keys.authenticate(key))?.accountId as string;
    monitorId = (
      await store.monitors.create(
        accountId,
        toMonitorSpec({ name: "m", type: "http", url: "https://x.example", interval_sec: 60 }),
      )
    ).id;
  });
  afterEach(async () => await store.close());

  const check = async (at: number, up: boolean, ms = 100) =>
    await store.recordCheck(
      monitorId,
      { up, response_time_ms: ms, status_code: up ? 200 : 503, error: up ? null : "x" },
      at,
    );

  it("answers a window with no data with nulls and one empty entry per day", async () => {
    const stats = await store.heartbeats.stats(monitorId, 3, MIDNIGHT + 3_600_000);
    expect(stats).toMatchObject({
      checks: 0,
      uptime_pct: null,
      avg_response_ms: null,
      p95_response_ms: null,
      incidents: 0,
      downtime_sec: 0,
    });
    expect(stats.from).toBe(new Date(MIDNIGHT - 2 * DAY).toISOString());
    expect(stats.daily.map((d) => d.date)).toEqual(["2026-11-18", "2026-11-19", "2026-11-20"]);
    expect(stats.daily.every((d) => d.checks === 0 && d.uptime_pct === null)).toBe(true);
  });

  it("splits days at UTC midnight and measures an incident across it", async () => {
    await check(MIDNIGHT - 120_000, true, 100);
    expect((await check(MIDNIGHT - 60_000, false, 300))?.transition).toBe("down");
    await check(MIDNIGHT - 1, false, 300);
    await check(MIDNIGHT, false, 300);
    expect((await check(MIDNIGHT + 60_000, true, 100))?.transition).toBe("up");
    await check(MIDNIGHT + 120_000, true, 100);
    const stats = await store.heartbeats.stats(monitorId, 2, MIDNIGHT + 3_600_000);
    expect(stats.daily).toEqual([
      { date: "2026-11-19", checks: 3, uptime_pct: 33.333, avg_response_ms: 233.3 },
      { date: "2026-11-20", checks: 3, uptime_pct: 66.667, avg_response_ms: 166.7 },
    ]);
    expect(stats).toMatchObject({
      checks: 6,
      up_checks: 3,
      down_checks: 3,
      uptime_pct: 50,
      incidents: 1,
      downtime_sec: 120,
    });
    expect(stats.p95_response_ms).toBe(300);
    const today = await store.heartbeats.stats(monitorId, 1, MIDNIGHT + 3_600_000);
    expect(today).toMatchObject({ checks: 3, incidents: 1, downtime_sec: 60 });
  });

  it("prunes heartbeats older than the longest window served", async () => {
    const now = Date.now();
    await check(now - 91 * DAY, true);
    await check(now - 89 * DAY, true);
    expect(await store.pruneChecks(now)).toBe(1);
    expect((await store.heartbeats.stats(monitorId, 90, now)).checks).toBe(1);
  });
});
