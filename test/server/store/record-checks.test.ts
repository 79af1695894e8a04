import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toMonitorSpec } from "../../../api";
import type { Store } from "../../../server/index";
import { ENGINES, openTestStore } from "../../support/store-engines";

const DAY = 86_400_000;
const MIDNIGHT = Date.UTC(2026, 10, 20);

describe.each(ENGINES)("checks recorded in one batch (%s)", (engine) => {
  let store: Store;
  let accountId: string;
  const create = async (name: string) =>
    (
      await store.monitors.create(
        accountId,
        toMonitorSpec({ name, type: "http", url: "https://x.example", interval_sec: 60 }),
      )
    ).id;
  const outcome = (up: boolean, ms = 100) => ({
    up,
    response_time_ms: ms,
    status_code: up ? 200 : 503,
    error: up ? null : "x",
  });
  beforeEach(async () => {
    store = await openTestStore(engine);
    const { key } = await store.keys.create("acme", null);
    accountId = (await store.keys.authenticate(key))?.accountId as string;
  });
  afterEach(async () => await store.close());

  it("record each check as recordCheck would: a monitor's second check after its first, a paused monitor's not at all", async () => {
    const [a, b, paused] = [await create("a"), await create("b"), await create("paused")];
    await store.monitors.setStatus(accountId, paused, "paused");
    const recorded = await store.recordChecks([
      { monitorId: a, outcome: outcome(true, 100), at: MIDNIGHT - 2_000 },
      { monitorId: b, outcome: outcome(false, 300), at: MIDNIGHT - 2_000 },
      { monitorId: a, outcome: outcome(false, 200), at: MIDNIGHT - 1_000 },
      { monitorId: paused, outcome: outcome(true), at: MIDNIGHT - 1_000 },
      // The next UTC day: a roll-up of its own.
      { monitorId: b, outcome: outcome(true, 100), at: MIDNIGHT + 1_000 },
    ]);
    expect(recorded.map((r) => r?.heartbeat?.status)).toEqual(["up", "down", "down", undefined, "up"]);
    expect(recorded.map((r) => r?.transition)).toEqual([undefined, "down", "down", undefined, "up"]);
    expect(recorded[2]?.heartbeat?.checked_at).toBe(new Date(MIDNIGHT - 1_000).toISOString());

    expect((await store.monitors.find(a))?.health).toBe("down");
    expect((await store.monitors.find(b))?.health).toBe("up");
    expect((await store.monitors.find(paused))?.last_checked_at).toBeNull();
    const statsA = await store.heartbeats.stats(a, 2, MIDNIGHT + 3_600_000);
    expect(statsA).toMatchObject({ checks: 2, up_checks: 1, down_checks: 1, incidents: 1, avg_response_ms: 150 });
    const statsB = await store.heartbeats.stats(b, 2, MIDNIGHT + 3_600_000);
    expect(statsB.daily.map((d) => [d.checks, d.uptime_pct])).toEqual([
      [1, 0],
      [1, 100],
    ]);
    expect(statsB.incidents).toBe(1);
    expect(statsB.downtime_sec).toBe(3);
    const locations = await store.heartbeats.locationStats(a, 1, ["local"], () => true, MIDNIGHT - 500);
    expect(locations).toMatchObject([{ location: "local", checks: 2, up_checks: 1, health: "down" }]);
    expect(await store.heartbeats.recent(paused, 48, MIDNIGHT + 1)).toEqual([]);
  });

  it("answer an empty batch with nothing, and a batch of one as recordCheck does", async () => {
    expect(await store.recordChecks([])).toEqual([]);
    const a = await create("a");
    const [one] = await store.recordChecks([{ monitorId: a, outcome: outcome(false), at: MIDNIGHT + DAY }]);
    expect(one).toMatchObject({ transition: "down", failedLocations: ["local"], heartbeat: { status: "down" } });
  });
});
