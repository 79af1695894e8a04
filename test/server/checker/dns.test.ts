import { describe, expect, it } from "vitest";
import { useCheckerRig } from "../../support/checker-rig";
import { startDnsServer } from "../../support/dns-server";
import { postMonitor, startServer, webhookChannel } from "../../support/server";
import { eventually } from "../../support/target";

describe("DNS monitors", () => {
  const s = useCheckerRig(() => startDnsServer());

  const { monitor } = s;
  const create = async (body: Record<string, unknown>) => {
    const res = await s.call("POST", "/api/v1/monitors", {
      name: "dns",
      type: "dns",
      interval_sec: 2,
      timeout_sec: 1,
      dns_resolver: s.target.address,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };

  it("is up while the answers equal the expected set, and goes down and notifies when a record changes", async () => {
    s.target.set("app.example.test", "A", ["192.0.2.10", "192.0.2.11"]);
    const channel = await webhookChannel(s, "hook", { url: `${s.receiver.url}/dns` });
    const m = await create({
      url: "dns://app.example.test",
      dns_record_type: "A",
      dns_expected_values: ["192.0.2.11", "192.0.2.10"],
      channel_ids: [channel.id],
    });
    expect(m).toMatchObject({
      dns_record_type: "A",
      dns_expected_values: ["192.0.2.10", "192.0.2.11"],
      dns_resolver: s.target.address,
    });
    await eventually(async () => (await monitor(m.id)).health === "up");

    s.target.set("app.example.test", "A", ["192.0.2.10", "203.0.113.5"]);
    await eventually(async () => (await monitor(m.id)).health === "down");
    const [hb] = (await s.call("GET", `/api/v1/monitors/${m.id}/heartbeats?hours=1`)).body.data;
    expect(hb.error).toBe("A app.example.test is [192.0.2.10, 203.0.113.5], expected [192.0.2.10, 192.0.2.11]");
    const [down] = await s.receiver.waitFor(1);
    expect(JSON.parse(down?.body ?? "")).toMatchObject({ event: "monitor.down", monitor: { id: m.id } });
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
  });

  it("compares CNAME, MX, TXT, NS and AAAA answers in normal form", async () => {
    s.target.set("www.example.test", "CNAME", ["app.example.test"]);
    s.target.set("example.test", "MX", ["10 mx1.example.test", "20 mx2.example.test"]);
    s.target.set("example.test", "TXT", ["v=spf1 -all"]);
    s.target.set("example.test", "NS", ["ns1.example.test"]);
    s.target.set("v6.example.test", "AAAA", ["2001:db8::1"]);
    const ids = [
      (
        await create({
          url: "dns://www.example.test",
          dns_record_type: "CNAME",
          dns_expected_values: ["App.Example.Test."],
        })
      ).id,
      (
        await create({
          url: "dns://example.test",
          dns_record_type: "MX",
          dns_expected_values: ["20 mx2.example.test", "10 MX1.example.test."],
        })
      ).id,
      (await create({ url: "dns://example.test", dns_record_type: "TXT", dns_expected_values: ["v=spf1 -all"] })).id,
      (await create({ url: "dns://example.test", dns_record_type: "NS", dns_expected_values: ["ns1.example.test"] }))
        .id,
      (
        await create({
          url: "dns://v6.example.test",
          dns_record_type: "AAAA",
          dns_expected_values: ["2001:0db8:0:0:0:0:0:1"],
        })
      ).id,
    ];
    await eventually(async () => {
      for (const id of ids) if ((await monitor(id)).health !== "up") return false;
      return true;
    });
    for (const id of ids) await s.call("DELETE", `/api/v1/monitors/${id}`);
  });

  it("rejects bad DNS fields with the field named", async () => {
    const res = await postMonitor(s, {
      type: "dns",
      url: "dns://x.test/path",
      dns_record_type: "A",
      dns_expected_values: ["not-an-ip"],
      dns_resolver: "resolver.example",
    });
    expect(res.status).toBe(422);
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(["url", "dns_expected_values[0]", "dns_resolver"]));
    const http = await postMonitor(s, { type: "http", url: "http://x.test", dns_expected_values: ["1.2.3.4"] });
    expect(http.body.error.details).toEqual([
      { field: "dns_expected_values", message: "is only allowed for dns monitors, not http" },
    ]);
  });
});

describe("DNS monitors under the outbound policy", () => {
  it("never asks a loopback resolver unless private targets are allowed", async () => {
    const dns = await startDnsServer();
    const s = await startServer({ checker: true, minIntervalSec: 1, allowPrivateTargets: false });
    try {
      dns.set("app.example.test", "A", ["192.0.2.10"]);
      const id = (
        await postMonitor(s, {
          type: "dns",
          url: "dns://app.example.test",
          interval_sec: 2,
          timeout_sec: 1,
          dns_resolver: dns.address,
          dns_expected_values: ["192.0.2.10"],
        })
      ).body.data.id;
      const hb = await eventually(async () => (await s.call("GET", `/api/v1/monitors/${id}/heartbeats`)).body.data[0]);
      expect(hb).toMatchObject({ status: "down" });
      expect(hb.error).toMatch(/resolver refused: 127\.0\.0\.1 is not a global unicast address \(loopback\)/);
    } finally {
      await s.close();
      await dns.close();
    }
  });
});
