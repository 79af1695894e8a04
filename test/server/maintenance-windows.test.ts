import { describe, expect, it } from "vitest";
import { useCheckerRig } from "../support/checker-rig";
import { eventually, startTarget } from "../support/target";
import { webhookChannel } from "../support/server";

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe("maintenance windows", () => {
  const s = useCheckerRig(() => startTarget());

  const { monitor } = s;

  it("a failure inside a window opens nothing, notifies nobody, counts as maintenance and shows as maintenance", async () => {
    const channel = await webhookChannel(s, "hook", { url: `${s.receiver.url}/m` });
    const m = await s.probe("Shop", { channel_ids: [channel.id] });
    await s.call("POST", "/api/v1/status-pages", { slug: "maint-page", title: "Status", monitor_ids: [m.id] });
    await eventually(async () => (await monitor(m.id)).health === "up");

    const created = await s.call("POST", "/api/v1/maintenance-windows", {
      name: "upgrade",
      monitor_ids: [m.id],
      starts_at: iso(Date.now() - HOUR),
      ends_at: iso(Date.now() + HOUR),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      name: "upgrade",
      monitor_ids: [m.id],
      rrule: null,
      time_zone: "UTC",
      active: true,
    });
    s.target.healthy = false;
    const hb = await eventually(async () => {
      const [latest] = (await s.call("GET", `/api/v1/monitors/${m.id}/heartbeats?hours=1`)).body.data;
      return latest?.status === "maintenance" ? latest : undefined;
    });
    expect(hb).toMatchObject({ status: "maintenance", status_code: 503 });
    expect((await monitor(m.id)).health).toBe("up");
    const stats = (await s.call("GET", `/api/v1/monitors/${m.id}/stats?days=1`)).body.data;
    expect(stats).toMatchObject({ incidents: 0, down_checks: 0, uptime_pct: 100, downtime_sec: 0 });
    expect(stats.maintenance_checks).toBeGreaterThan(0);
    const doc = (await s.call("GET", "/api/status/maint-page.json", undefined, { key: null })).body.data;
    expect(doc).toMatchObject({
      status: "maintenance",
      monitors: [{ name: "Shop", status: "maintenance", uptime_pct_24h: 100 }],
    });
    expect(s.receiver.received).toHaveLength(0);

    // The window ends: the next failure opens an incident and notifies.
    await s.call("PATCH", `/api/v1/maintenance-windows/${created.body.data.id}`, { ends_at: iso(Date.now() - 1000) });
    await eventually(async () => (await monitor(m.id)).health === "down");
    await s.receiver.waitFor(1);
    expect((await s.call("GET", "/api/status/maint-page.json", undefined, { key: null })).body.data.status).toBe(
      "down",
    );
    s.target.healthy = true;
  });

  it("repeats by an RRULE in a time zone, and lists, reads, updates and deletes", async () => {
    const m = (
      await s.call("POST", "/api/v1/monitors", { name: "x", type: "http", url: s.target.url, interval_sec: 60 })
    ).body.data;
    const now = Date.now();
    // Daily, starting a week ago at this minute, lasting one hour: in effect now.
    const daily = await s.call("POST", "/api/v1/maintenance-windows", {
      name: "nightly",
      monitor_ids: [m.id, m.id],
      starts_at: iso(now - 7 * 24 * HOUR - 60_000),
      ends_at: iso(now - 7 * 24 * HOUR + HOUR),
      rrule: "FREQ=DAILY",
      time_zone: "UTC",
    });
    expect(daily.body.data).toMatchObject({ monitor_ids: [m.id], rrule: "FREQ=DAILY", time_zone: "UTC", active: true });
    // Weekly on a day other than today's: not in effect.
    const otherDay = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][(new Date(now).getUTCDay() + 3) % 7];
    const weekly = await s.call("POST", "/api/v1/maintenance-windows", {
      name: "weekly",
      monitor_ids: [m.id],
      starts_at: iso(now - 30 * 24 * HOUR),
      ends_at: iso(now - 30 * 24 * HOUR + HOUR),
      rrule: `FREQ=WEEKLY;BYDAY=${otherDay}`,
    });
    expect(weekly.body.data.active).toBe(false);
    const list = (await s.call("GET", "/api/v1/maintenance-windows")).body;
    expect(list.data.map((w: { name: string }) => w.name)).toEqual(["upgrade", "nightly", "weekly"]);
    expect((await s.call("GET", `/api/v1/maintenance-windows/${weekly.body.data.id}`)).body.data.name).toBe("weekly");
    expect(
      (await s.call("PATCH", `/api/v1/maintenance-windows/${weekly.body.data.id}`, { name: "renamed" })).body.data,
    ).toMatchObject({ name: "renamed", rrule: `FREQ=WEEKLY;BYDAY=${otherDay}` });
    expect((await s.call("DELETE", `/api/v1/maintenance-windows/${weekly.body.data.id}`)).status).toBe(200);
    expect((await s.call("GET", `/api/v1/maintenance-windows/${weekly.body.data.id}`)).status).toBe(404);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    // Deleting a monitor removes it from its windows.
    expect((await s.call("GET", `/api/v1/maintenance-windows/${daily.body.data.id}`)).body.data.monitor_ids).toEqual(
      [],
    );
  });

  it("rejects bad windows with the field named", async () => {
    const res = await s.call("POST", "/api/v1/maintenance-windows", {
      name: "bad",
      monitor_ids: ["mon_nope"],
      starts_at: "2026-01-01T02:00:00Z",
      ends_at: "2026-01-01T01:00:00Z",
      rrule: "BYDAY=SU",
      time_zone: "Mars/Olympus",
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: "rrule", message: "must set FREQ (e.g. FREQ=WEEKLY;BYDAY=SU)" },
      { field: "time_zone", message: "must be an IANA time zone such as UTC or Europe/Berlin" },
    ]);
    const order = await s.call("POST", "/api/v1/maintenance-windows", {
      name: "bad",
      monitor_ids: ["mon_nope"],
      starts_at: "2026-01-01T02:00:00Z",
      ends_at: "2026-01-01T01:00:00Z",
    });
    expect(order.body.error.details).toEqual([
      { field: "ends_at", message: "must be after the start (2026-01-01T02:00:00Z)" },
      { field: "monitor_ids[0]", message: "monitor mon_nope does not exist" },
    ]);
  });
});
