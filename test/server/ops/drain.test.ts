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
});
