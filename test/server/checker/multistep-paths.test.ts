import { describe, expect, it } from "vitest";
import { useCheckerRig } from "../../support/checker-rig";
import { journeySteps, startJourneyService } from "../../support/journey-service";
import { eventually } from "../../support/target";
import { webhookChannel } from "../../support/server";

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** What every monitor has, with a multi-step monitor: confirmations, maintenance windows, the status page. */
describe("a multi-step monitor through confirmations, maintenance windows and the status page", () => {
  const s = useCheckerRig(() => startJourneyService());
  const heartbeats = async (id: string) =>
    (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[];
  /** Creates a journey through the service, checked every 2 s, that alerts `channelId` (`over`: more fields). */
  const journey = (name: string, channelId: string, over: Record<string, unknown> = {}) =>
    s.call("POST", "/api/v1/monitors", {
      name,
      type: "multistep",
      interval_sec: 2,
      timeout_sec: 1,
      channel_ids: [channelId],
      variables: { password: s.target.password },
      steps: journeySteps(s.target.url),
      ...over,
    });
  const statusDoc = async (slug: string) =>
    (await s.call("GET", `/api/status/${slug}.json`, undefined, { key: null })).body.data;

  it("a broken step goes down only after its confirmations, alerts once without a secret, and shows on the status page", async () => {
    const channel = await webhookChannel(s, "hook", { url: `${s.receiver.url}/journey` });
    const res = await journey("Checkout journey", channel.id, { confirmations: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id as string;
    await s.call("POST", "/api/v1/status-pages", { slug: "journey-page", title: "Status", monitor_ids: [id] });
    await eventually(async () => (await s.monitor(id)).health === "up");
    expect(await statusDoc("journey-page")).toMatchObject({
      status: "operational",
      monitors: [{ name: "Checkout journey", status: "up" }],
    });

    s.target.brokenRead = true;
    const [event] = await s.receiver.waitFor(1);
    const failed = (await heartbeats(id)).filter((h) => h.status === "down");
    // Confirmations: two failed runs before the monitor is down.
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(failed[0]).toMatchObject({ error: expect.stringMatching(/^step 3 "read": /) });
    const body = JSON.parse(event?.body ?? "");
    expect(body).toMatchObject({ event: "monitor.down", monitor: { id } });
    for (const secret of [s.target.password, ...s.target.tokens]) expect(event?.body).not.toContain(secret);
    expect(await statusDoc("journey-page")).toMatchObject({ monitors: [{ name: "Checkout journey", status: "down" }] });
    expect(s.receiver.received).toHaveLength(1);
    s.target.brokenRead = false;
    await eventually(async () => (await s.monitor(id)).health === "up");
    await s.call("DELETE", `/api/v1/monitors/${id}`);
  });

  it("inside a maintenance window a failed journey records maintenance, opens nothing and notifies nobody", async () => {
    const before = s.receiver.received.length;
    const channel = await webhookChannel(s, "hook2", { url: `${s.receiver.url}/window` });
    const res = await journey("Journey in a window", channel.id);
    const id = res.body.data.id as string;
    await eventually(async () => (await s.monitor(id)).health === "up");
    const window = await s.call("POST", "/api/v1/maintenance-windows", {
      name: "upgrade",
      monitor_ids: [id],
      starts_at: iso(Date.now() - HOUR),
      ends_at: iso(Date.now() + HOUR),
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    s.target.brokenRead = true;
    const hb = await eventually(async () => {
      const [latest] = await heartbeats(id);
      return latest?.status === "maintenance" ? latest : undefined;
    });
    expect(hb.steps).toBeDefined();
    expect((hb.steps as { status: string }[])[2]?.status).toBe("failed");
    expect((await s.monitor(id)).health).toBe("up");
    const stats = (await s.call("GET", `/api/v1/monitors/${id}/stats?days=1`)).body.data;
    expect(stats).toMatchObject({ incidents: 0, down_checks: 0 });
    expect(s.receiver.received).toHaveLength(before);
    s.target.brokenRead = false;
    await s.call("DELETE", `/api/v1/monitors/${id}`);
  });
});
