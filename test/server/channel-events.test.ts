import { describe, expect, it } from "vitest";
import { startReceiver } from "../support/receiver";
import { postMonitor } from "../support/server";
import { startTarget } from "../support/target";
import { useServer, useStarted } from "../support/use-server";

describe("the events each channel hears", () => {
  const s = useServer({ checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [50] });
  const receiver = useStarted("the receiver", startReceiver);
  const target = useStarted("the target", startTarget);

  const create = async (body: Record<string, unknown>) => {
    const res = await s.call("POST", "/api/v1/channels", { name: "c", type: "webhook", ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };

  it("defaults to down and recovered, notify_degraded adds degraded, and the two stay in step", async () => {
    const plain = await create({ config: { url: `${receiver.url}/a` } });
    expect(plain).toMatchObject({ events: ["down", "recovered"], notify_degraded: false });
    const slow = await create({ config: { url: `${receiver.url}/b` }, notify_degraded: true });
    expect(slow).toMatchObject({ events: ["down", "recovered", "degraded"], notify_degraded: true });
    // A PATCH of the flag alone adds or removes degraded; of events alone, the flag follows.
    const off = await s.call("PATCH", `/api/v1/channels/${slow.id}`, { notify_degraded: false });
    expect(off.body.data).toMatchObject({ events: ["down", "recovered"], notify_degraded: false });
    const chosen = await s.call("PATCH", `/api/v1/channels/${plain.id}`, {
      events: ["certificate_expiring", "degraded", "degraded"],
    });
    expect(chosen.body.data).toMatchObject({ events: ["degraded", "certificate_expiring"], notify_degraded: true });
    const unknown = await s.call("PATCH", `/api/v1/channels/${plain.id}`, { events: ["down", "paged"] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details[0].field).toBe("events[1]");
    // The same events again write nothing.
    const again = await s.call("PATCH", `/api/v1/channels/${plain.id}`, {
      events: ["degraded", "certificate_expiring"],
    });
    expect(again.body.data.updated_at).toBe(chosen.body.data.updated_at);
  });

  it("delivers a down only to channels with down, and a recovery only to channels with recovered", async () => {
    const downOnly = await create({ config: { url: `${receiver.url}/down-only` }, events: ["down"] });
    const upOnly = await create({ config: { url: `${receiver.url}/up-only` }, events: ["recovered"] });
    const none = await create({ config: { url: `${receiver.url}/none` }, events: [] });
    target.healthy = false;
    const before = receiver.received.length;
    const m = (
      await postMonitor(s, {
        type: "http",
        url: target.url,
        interval_sec: 2,
        timeout_sec: 1,
        channel_ids: [downOnly.id, upOnly.id, none.id],
      })
    ).body.data;
    try {
      await receiver.waitFor(before + 1);
      target.healthy = true;
      await receiver.waitFor(before + 2);
      await new Promise((r) => setTimeout(r, 300));
      const got = receiver.received.slice(before).map((r) => `${r.path} ${r.headers["x-event"]}`);
      expect(got).toEqual(["/down-only monitor.down", "/up-only monitor.up"]);
      const [down, up] = receiver.received.slice(before).map((r) => JSON.parse(r.body));
      expect(down).toMatchObject({ notification: "trigger", incident: { id: expect.stringMatching(/^inc_/) } });
      expect(up).toMatchObject({ notification: "resolve", incident: { id: down.incident.id } });
    } finally {
      await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    }
  });
});
