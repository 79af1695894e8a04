import { describe, expect, it } from "vitest";
import { useCheckerRig } from "../../support/checker-rig";
import { eventually, startTarget } from "../../support/target";
import { postMonitor, webhookChannel } from "../../support/server";

describe("alert confirmation", () => {
  const s = useCheckerRig(() => startTarget());

  const { monitor } = s;
  const statuses = async (id: string) =>
    ((await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as { status: string }[]).map(
      (h) => h.status,
    );

  it("with confirmations: 3, two failures alert nobody and the third does; recovery needs recovery_confirmations passes", async () => {
    const channel = await webhookChannel(s, "hook", { url: `${s.receiver.url}/c` });
    const m = await s.probe("confirmed", { channel_ids: [channel.id], confirmations: 3, recovery_confirmations: 2 });
    expect(m).toMatchObject({ confirmations: 3, recovery_confirmations: 2 });
    await eventually(async () => (await monitor(m.id)).health === "up");

    s.target.healthy = false;
    await eventually(async () => (await statuses(m.id))[1] === "down");
    // Two failures in a row: still up, no incident, nobody told.
    expect((await statuses(m.id)).slice(0, 2)).toEqual(["down", "down"]);
    expect((await monitor(m.id)).health).toBe("up");
    expect((await s.call("GET", `/api/v1/monitors/${m.id}/stats?days=1`)).body.data.incidents).toBe(0);
    expect(s.receiver.received).toHaveLength(0);

    await eventually(async () => (await monitor(m.id)).health === "down");
    expect((await statuses(m.id)).slice(0, 3)).toEqual(["down", "down", "down"]);
    const [down] = await s.receiver.waitFor(1);
    expect(JSON.parse(down?.body ?? "")).toMatchObject({ event: "monitor.down", monitor: { id: m.id } });

    s.target.healthy = true;
    await eventually(async () => (await statuses(m.id))[0] === "up");
    expect((await monitor(m.id)).health).toBe("down");
    await eventually(async () => (await monitor(m.id)).health === "up");
    expect((await statuses(m.id)).slice(0, 2)).toEqual(["up", "up"]);
    const [, up] = await s.receiver.waitFor(2);
    expect(JSON.parse(up?.body ?? "")).toMatchObject({ event: "monitor.up", monitor: { id: m.id } });
    expect(s.receiver.received).toHaveLength(2);
    expect((await s.call("GET", `/api/v1/monitors/${m.id}/stats?days=1`)).body.data.incidents).toBe(1);
  });

  it("keeps confirmations within 1..10 and defaults both to 1", async () => {
    const bad = await postMonitor(s, { type: "http", url: s.target.url, confirmations: 0, recovery_confirmations: 11 });
    expect(bad.body.error.details).toEqual([
      { field: "confirmations", message: "must be between 1 and 10" },
      { field: "recovery_confirmations", message: "must be between 1 and 10" },
    ]);
    const plain = (await postMonitor(s, { type: "http", url: s.target.url })).body.data;
    expect(plain).toMatchObject({
      confirmations: 1,
      recovery_confirmations: 1,
      verify_tls: true,
      ssl_expiry_days: null,
    });
    await s.call("DELETE", `/api/v1/monitors/${plain.id}`);
  });
});
