import { Agent, request } from "undici";
import { describe, expect, it } from "vitest";
import { startReceiver } from "../../support/receiver";
import { startServer } from "../../support/server";
import { eventually, startTarget } from "../../support/target";

describe("closing the server", () => {
  it("gives a notification waiting to retry its last attempt now, instead of waiting or dropping it", async () => {
    const target = await startTarget();
    target.healthy = false;
    const failing = await startReceiver(500);
    const s = await startServer({ checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [60_000, 60_000] });
    try {
      const channel = (await s.call("POST", "/api/v1/channels", { name: "hook", type: "webhook", config: { url: `${failing.url}/hook` } })).body.data;
      await s.call("POST", "/api/v1/monitors", { name: "Site", type: "http", url: target.url, interval_sec: 2, timeout_sec: 1, channel_ids: [channel.id] });
      await eventually(async () => failing.received.length >= 1);
      const started = Date.now();
      await s.close();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(failing.received).toHaveLength(2);
      const failed = await s.app.metrics.notificationsFailed.get();
      expect(failed.values).toEqual([{ labels: { channel_type: "webhook" }, value: 1 }]);
    } finally {
      await failing.close();
      await target.close();
    }
  });

  it("answers the requests in flight with Connection: close, so a kept-alive agent does not hold the close for the keep-alive timeout", async () => {
    // The server keeps an idle connection 72 s by default; an agent almost always has a lease
    // request waiting on its kept-alive connection when the server is told to stop.
    const s = await startServer({ keepAliveTimeoutMs: 72_000 });
    const key = (await s.app.store.keys.create("dev", "agent", undefined, "edge")).key;
    const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
    try {
      const lease = (waitMs: number) =>
        request(`${s.url}/api/v1/agent/leases`, {
          method: "POST",
          dispatcher,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ agent_id: "edge-1", max: 1, wait_ms: waitMs }),
        });
      // A first call opens the kept-alive connection; the second waits on it when the close begins.
      await (await lease(0)).body.text();
      const waiting = lease(1_000);
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const closed = s.close();
      const answer = await waiting;
      expect(answer.statusCode).toBe(200);
      expect(answer.headers.connection).toBe("close");
      await answer.body.text();
      await closed;
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await dispatcher.close();
    }
  });
});
