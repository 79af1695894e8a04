import { describe, expect, it } from "vitest";
import { useCheckerRig } from "../../support/checker-rig";
import { eventually } from "../../support/target";
import { startTlsTarget } from "../../support/tls-target";
import { postMonitor, webhookChannel } from "../../support/server";

describe("certificate checks of https monitors", () => {
  const s = useCheckerRig(() => startTlsTarget(5));

  const { monitor } = s;
  const latest = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data[0];
  const create = async (body: Record<string, unknown>) => {
    const res = await s.call("POST", "/api/v1/monitors", {
      name: "tls",
      type: "http",
      url: s.target.url,
      interval_sec: 2,
      timeout_sec: 1,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };

  it("alerts when the certificate expires in fewer than ssl_expiry_days, and heartbeats carry the expiry", async () => {
    const channel = await webhookChannel(s, "hook", { url: `${s.receiver.url}/tls` });
    const soon = await create({ verify_tls: false, ssl_expiry_days: 14, channel_ids: [channel.id] });
    const fine = await create({ verify_tls: false, ssl_expiry_days: 3 });
    expect(soon).toMatchObject({ verify_tls: false, ssl_expiry_days: 14 });
    await eventually(
      async () => (await monitor(soon.id)).health === "down" && (await monitor(fine.id)).health === "up",
    );
    const hb = await latest(soon.id);
    expect(hb.error).toMatch(/^certificate expires in [45] days \(.*\), fewer than 14$/);
    expect(Math.abs(Date.parse(hb.cert_expires_at) - s.target.notAfter.getTime())).toBeLessThan(1000);
    expect(Date.parse((await latest(fine.id)).cert_expires_at)).toBe(Date.parse(hb.cert_expires_at));
    // The check that opened the connection (either monitor's: the other may reuse it) timed its handshake (DNS and TCP inside it).
    const beats = [
      ...(await s.call("GET", `/api/v1/monitors/${fine.id}/heartbeats?hours=1`)).body.data,
      ...(await s.call("GET", `/api/v1/monitors/${soon.id}/heartbeats?hours=1`)).body.data,
    ];
    expect(
      beats
        .map((b: { timings: { tls_ms: number | null } }) => b.timings.tls_ms)
        .some((ms: number | null) => ms !== null && ms > 0),
    ).toBe(true);
    const [down] = await s.receiver.waitFor(1);
    expect(JSON.parse(down?.body ?? "")).toMatchObject({
      event: "monitor.down",
      monitor: { id: soon.id },
      heartbeat: { status: "down" },
    });
    for (const m of [soon, fine]) await s.call("DELETE", `/api/v1/monitors/${m.id}`);
  });

  it("a channel with certificate_expiring hears an incident the expiry opened, and no other failure", async () => {
    const channel = (
      await s.call("POST", "/api/v1/channels", {
        name: "certs",
        type: "webhook",
        config: { url: `${s.receiver.url}/certs` },
        events: ["certificate_expiring"],
      })
    ).body.data;
    const expiring = await create({ verify_tls: false, ssl_expiry_days: 14, channel_ids: [channel.id] });
    const untrusted = await create({ channel_ids: [channel.id] });
    await eventually(
      async () => (await monitor(expiring.id)).health === "down" && (await monitor(untrusted.id)).health === "down",
    );
    const heard = await eventually(
      async () =>
        s.receiver.received.filter((r) => r.path === "/certs").length > 0 &&
        s.receiver.received.filter((r) => r.path === "/certs"),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(heard.map((r) => JSON.parse(r.body))).toEqual([
      expect.objectContaining({
        event: "monitor.down",
        cause: "certificate_expiring",
        monitor: expect.objectContaining({ id: expiring.id }),
      }),
    ]);
    for (const m of [expiring, untrusted]) await s.call("DELETE", `/api/v1/monitors/${m.id}`);
  });

  it("verifies certificates by default: a self-signed one is down", async () => {
    const strict = await create({});
    expect(strict).toMatchObject({ verify_tls: true, ssl_expiry_days: null });
    await eventually(async () => (await monitor(strict.id)).health === "down");
    expect((await latest(strict.id)).error).toMatch(/self[- ]signed/i);
    expect((await latest(strict.id)).error_class).toBe("tls");
    await s.call("DELETE", `/api/v1/monitors/${strict.id}`);
  });

  it("rejects ssl_expiry_days on a monitor that is not https", async () => {
    const res = await postMonitor(s, { type: "http", url: "http://example.test", ssl_expiry_days: 14 });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: "ssl_expiry_days", message: "is only allowed for https:// monitors" },
    ]);
    const range = await postMonitor(s, { type: "http", url: "https://example.test", ssl_expiry_days: 0 });
    expect(range.body.error.details).toEqual([{ field: "ssl_expiry_days", message: "must be between 1 and 365" }]);
  });
});
