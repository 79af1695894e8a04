import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toMonitorSpec } from "../../../api";
import { Store } from "../../../server/index";

const DAY = 86_400_000;
const MIDNIGHT = Date.UTC(2026, 10, 20);

describe("heartbeat stats", () => {
  let store: Store;
  let monitorId: string;
  beforeEach(() => {
    store = Store.open(":memory:");
    const { key } = store.keys.create("acme", null);
    const accountId = store.keys.authenticate(key)?.accountId as string;
    monitorId = store.monitors.create(accountId, toMonitorSpec({ name: "m", type: "http", url: "https://x.example", interval_sec: 60 })).id;
  });
  afterEach(() => store.close());

  const check = (at: number, up: boolean, ms = 100) =>
    store.recordCheck(monitorId, { up, response_time_ms: ms, status_code: up ? 200 : 503, error: up ? null : "x" }, at);

  it("answers a window with no data with nulls and one empty entry per day", () => {
    const stats = store.heartbeats.stats(monitorId, 3, MIDNIGHT + 3_600_000);
    expect(stats).toMatchObject({ checks: 0, uptime_pct: null, avg_response_ms: null, p95_response_ms: null, incidents: 0, downtime_sec: 0 });
    expect(stats.from).toBe(new Date(MIDNIGHT - 2 * DAY).toISOString());
    expect(stats.daily.map((d) => d.date)).toEqual(["2026-11-18", "2026-11-19", "2026-11-20"]);
    expect(stats.daily.every((d) => d.checks === 0 && d.uptime_pct === null)).toBe(true);
  });

  it("splits days at UTC midnight and measures an incident across it", () => {
    check(MIDNIGHT - 120_000, true, 100);
    expect(check(MIDNIGHT - 60_000, false, 300)?.transition).toBe("down");
    check(MIDNIGHT - 1, false, 300);
    check(MIDNIGHT, false, 300);
    expect(check(MIDNIGHT + 60_000, true, 100)?.transition).toBe("up");
    check(MIDNIGHT + 120_000, true, 100);
    const stats = store.heartbeats.stats(monitorId, 2, MIDNIGHT + 3_600_000);
    expect(stats.daily).toEqual([
      { date: "2026-11-19", checks: 3, uptime_pct: 33.333, avg_response_ms: 233.3 },
      { date: "2026-11-20", checks: 3, uptime_pct: 66.667, avg_response_ms: 166.7 },
    ]);
    expect(stats).toMatchObject({ checks: 6, up_checks: 3, down_checks: 3, uptime_pct: 50, incidents: 1, downtime_sec: 120 });
    expect(stats.p95_response_ms).toBe(300);
    const today = store.heartbeats.stats(monitorId, 1, MIDNIGHT + 3_600_000);
    expect(today).toMatchObject({ checks: 3, incidents: 1, downtime_sec: 60 });
  });

  it("prunes heartbeats older than the longest window served", () => {
    const now = Date.now();
    check(now - 91 * DAY, true);
    check(now - 89 * DAY, true);
    expect(store.pruneChecks(now)).toBe(1);
    expect(store.heartbeats.stats(monitorId, 90, now).checks).toBe(1);
  });
});
