import { beforeAll, describe, expect, it } from "vitest";
import { getMonitorHeartbeats, getMonitorStats, getStatusDocument, testChannel } from "../../provider/index";
import { startReceiver } from "../support/receiver";
import { httpMonitorId } from "../support/server";
import { eventually, startTarget } from "../support/target";
import { useServer, useStarted } from "../support/use-server";

describe("provider functions", () => {
  const s = useServer({ checker: true, minIntervalSec: 1 });
  const target = useStarted("the target", startTarget);
  const receiver = useStarted("the receiver", startReceiver);
  let connection: { baseUrl: string; apiKey: string };
  beforeAll(() => {
    connection = { baseUrl: s.url, apiKey: s.key };
  });

  it("read heartbeats, stats and the public document, and test a channel", async () => {
    const id = await httpMonitorId(s, "fn", target.url, { interval_sec: 2, timeout_sec: 1 });
    await s.call("POST", "/api/v1/status-pages", { slug: "functions", title: "F", monitor_ids: [id] });
    const beats = await eventually(async () => {
      const hb = await getMonitorHeartbeats({ monitorId: id, hours: 1 }, { connection });
      return hb.length ? hb : undefined;
    });
    expect(beats[0]).toMatchObject({ monitor_id: id, status: "up", status_code: 200 });
    const stats = await getMonitorStats({ monitorId: id, days: 2 }, { connection });
    expect(stats).toMatchObject({ monitor_id: id, uptime_pct: 100 });
    expect(stats.daily).toHaveLength(2);
    expect(await getStatusDocument({ slug: "functions", baseUrl: s.url })).toMatchObject({
      status: "operational",
      monitors: [{ name: "fn" }],
    });
    await expect(getStatusDocument({ slug: "nope", baseUrl: s.url })).rejects.toMatchObject({
      code: "not_found",
      status: 404,
    });

    const c = (
      await s.call("POST", "/api/v1/channels", { name: "c", type: "webhook", config: { url: `${receiver.url}/x` } })
    ).body.data;
    expect(await testChannel({ channelId: c.id }, { connection })).toMatchObject({ delivered: true, status_code: 200 });
    expect(receiver.received).toHaveLength(1);
    await expect(getMonitorStats({ monitorId: "mon_missing" }, { connection })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
