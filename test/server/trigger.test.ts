import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRY_RUN_CONCURRENCY } from "../../api";
import { type Receiver, startReceiver } from "../support/receiver";
import { startServer, type TestServer, webhookChannel, httpMonitorId } from "../support/server";
import { eventually, startTarget, type Target } from "../support/target";

describe("trigger of deployed monitors (POST /api/v1/monitors/trigger)", () => {
  let s: TestServer;
  let ok: Target;
  let bad: Target;
  let receiver: Receiver;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    s = await startServer({ minIntervalSec: 1 });
    [ok, bad] = await Promise.all([startTarget(), startTarget()]);
    receiver = await startReceiver();
    bad.healthy = false;
    const hook = await webhookChannel(s, "hook", { url: `${receiver.url}/hook` });
    const make = async (name: string, url: string, tags: string[], extra: Record<string, unknown> = {}) => {
      ids[name] = (
        await s.call("POST", "/api/v1/monitors", {
          name,
          type: "http",
          url,
          interval_sec: 3600,
          tags,
          channel_ids: [hook.id],
          ...extra,
        })
      ).body.data.id;
    };
    await make("web", ok.url, ["shop"]);
    await make("api", bad.url, ["shop"]);
    await make("admin", ok.url, ["back-office"]);
    await make("paused", ok.url, ["shop"]);
    await s.call("POST", `/api/v1/monitors/${ids.paused}/pause`);
  });
  afterAll(async () => {
    await s.close();
    await Promise.all([ok.close(), bad.close(), receiver.close()]);
  });

  const trigger = (body: unknown) => s.call("POST", "/api/v1/monitors/trigger", body);
  const beats = async (name: string) =>
    (await s.call("GET", `/api/v1/monitors/${ids[name]}/heartbeats`)).body.data as unknown[];

  it("runs the tag's active monitors now, reports each, and stores nothing without record", async () => {
    const res = await trigger({ tag: "SHOP" });
    expect(res.status).toBe(200);
    expect(res.body.data.passed).toBe(false);
    expect(res.body.data.runs).toEqual([
      expect.objectContaining({
        monitor_id: ids.web,
        name: "web",
        location: expect.any(String),
        status: "up",
        recorded: false,
      }),
      expect.objectContaining({ monitor_id: ids.api, name: "api", status: "down", status_code: 503, recorded: false }),
    ]);
    expect(res.body.data.skipped).toEqual([{ monitor_id: ids.paused, name: "paused", reason: "paused" }]);
    expect(await beats("web")).toEqual([]);
    expect(await beats("api")).toEqual([]);
    expect((await s.call("GET", `/api/v1/monitors/${ids.api}`)).body.data.health).toBe("pending");
  });

  it("stores each check with record: health moves and the monitor's channels hear it", async () => {
    const res = await trigger({ monitor_ids: [ids.api], record: true });
    expect(res.body.data.runs).toEqual([
      expect.objectContaining({ monitor_id: ids.api, status: "down", recorded: true }),
    ]);
    expect(await beats("api")).toHaveLength(1);
    expect((await s.call("GET", `/api/v1/monitors/${ids.api}`)).body.data.health).toBe("down");
    const event = await eventually(async () =>
      receiver.received.find((r) => (JSON.parse(r.body) as { event?: string }).event === "monitor.down"),
    );
    expect(event).toBeDefined();
  });

  it("selects by ids and tag together, and passes when every check is up", async () => {
    const res = await trigger({ monitor_ids: [ids.web, ids.admin], tag: "shop" });
    expect(res.body.data).toMatchObject({
      passed: true,
      runs: [expect.objectContaining({ name: "web", status: "up" })],
      skipped: [],
    });
  });

  it("never runs more checks of one key at once than the dry-run cap", async () => {
    let open = 0;
    let most = 0;
    // A target that counts the checks it is answering at once.
    const counting = createServer((_req, res) => {
      most = Math.max(most, ++open);
      setTimeout(() => {
        open--;
        res.end("ok");
      }, 150);
    });
    await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < DRY_RUN_CONCURRENCY * 2 + 1; i++) {
        await s.call("POST", "/api/v1/monitors", {
          name: `slow-${i}`,
          type: "http",
          url,
          interval_sec: 3600,
          tags: ["slow"],
        });
      }
      const res = await trigger({ tag: "slow" });
      expect(res.body.data.runs).toHaveLength(DRY_RUN_CONCURRENCY * 2 + 1);
      expect(res.body.data.passed).toBe(true);
      expect(most).toBe(DRY_RUN_CONCURRENCY);
    } finally {
      counting.closeAllConnections();
      await new Promise((resolve) => counting.close(resolve));
    }
  });

  it("runs every check at --location, and refuses a location the account does not have, naming it", async () => {
    const builtin = (await trigger({ monitor_ids: [ids.web] })).body.data.runs[0].location as string;
    const here = await trigger({ monitor_ids: [ids.web], location: builtin });
    expect(here.body.data.runs).toEqual([expect.objectContaining({ location: builtin, status: "up" })]);
    const unknown = await trigger({ monitor_ids: [ids.web], location: "mars-1" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([
      { field: "location", message: expect.stringContaining("mars-1 is not one of the account's locations") },
    ]);
  });

  it("a location with no live agent fails its own check with the reason; the monitor's other locations run", async () => {
    await s.app.store.keys.create("dev", "us agent", undefined, "us");
    const edge = await httpMonitorId(s, "edge", ok.url, {
      interval_sec: 3600,
      tags: ["edge"],
      locations: ["local", "us"],
    });
    const res = await trigger({ monitor_ids: [edge] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.passed).toBe(false);
    expect(res.body.data.runs).toEqual([
      expect.objectContaining({ monitor_id: edge, location: "local", status: "up" }),
      expect.objectContaining({
        monitor_id: edge,
        location: "us",
        status: "down",
        error: expect.stringMatching(/^Location us has no live agent .*uptime-server agent --location us$/),
        recorded: false,
      }),
    ]);
  });

  it("refuses a body without a selection, and an unknown id, naming the field", async () => {
    const none = await trigger({ record: true });
    expect(none.status).toBe(422);
    expect(none.body.error.details).toEqual([
      expect.objectContaining({
        field: "monitor_ids",
        message: expect.stringContaining("give monitor_ids, tag or both"),
      }),
    ]);
    const unknown = await trigger({ monitor_ids: ["mon_0000000000000000000000000000"] });
    expect(unknown.status).toBe(404);
    const typo = await trigger({ tag: "shop", recrod: true });
    expect(typo.status).toBe(422);
  });
});
