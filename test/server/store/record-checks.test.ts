import { describe, expect, it } from "vitest";
import { ENGINES, useAccountStore } from "../../support/store-engines";

const DAY = 86_400_000;
const MIDNIGHT = Date.UTC(2026, 10, 20);

describe.each(ENGINES)("checks recorded in one batch (%s)", (engine) => {
  const t = useAccountStore(engine);
  const outcome = (up: boolean, ms = 100) => ({
    up,
    response_time_ms: ms,
    status_code: up ? 200 : 503,
    error: up ? null : "x",
  });

  it("record each check as recordCheck would: a monitor's second check after its first, a paused monitor's not at all", async () => {
    const [a, b, paused] = [await t.create("a"), await t.create("b"), await t.create("paused")];
    await t.store.monitors.setStatus(t.accountId, paused, "paused");
    const recorded = await t.store.recordChecks([
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

    expect((await t.store.monitors.find(a))?.health).toBe("down");
    expect((await t.store.monitors.find(b))?.health).toBe("up");
    expect((await t.store.monitors.find(paused))?.last_checked_at).toBeNull();
    const statsA = await t.store.heartbeats.stats(a, 2, MIDNIGHT + 3_600_000);
    expect(statsA).toMatchObject({ checks: 2, up_checks: 1, down_checks: 1, incidents: 1, avg_response_ms: 150 });
    const statsB = await t.store.heartbeats.stats(b, 2, MIDNIGHT + 3_600_000);
    expect(statsB.daily.map((d) => [d.checks, d.uptime_pct])).toEqual([
      [1, 0],
      [1, 100],
    ]);
    expect(statsB.incidents).toBe(1);
    expect(statsB.downtime_sec).toBe(3);
    const locations = await t.store.heartbeats.locationStats(a, 1, ["local"], () => true, MIDNIGHT - 500);
    expect(locations).toMatchObject([{ location: "local", checks: 2, up_checks: 1, health: "down" }]);
    expect(await t.store.heartbeats.recent(paused, 48, MIDNIGHT + 1)).toEqual([]);
  });

  it("answer an empty batch with nothing, and a batch of one as recordCheck does", async () => {
    expect(await t.store.recordChecks([])).toEqual([]);
    const a = await t.create("a");
    const [one] = await t.store.recordChecks([{ monitorId: a, outcome: outcome(false), at: MIDNIGHT + DAY }]);
    expect(one).toMatchObject({ transition: "down", failedLocations: ["local"], heartbeat: { status: "down" } });
  });
});
