import { describe, expect, it } from "vitest";
import { startVendorReceiver } from "../../server/testing";
import { eventually, startTarget } from "../support/target";
import { useServer, useStarted } from "../support/use-server";
import { stepOf, vendorConfig, type Who } from "../support/vendor-steps";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the order of one incident's notifications on one channel", () => {
  const s = useServer({ checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [20_000], alertTickMs: 100 });
  const v = useStarted("the vendor receiver", startVendorReceiver);
  const target = useStarted("the target", startTarget);
  const monitor = async (name: string, channelId: string) => {
    const created = await s.call("POST", "/api/v1/monitors", {
      name,
      type: "http",
      url: target.url,
      interval_sec: 2,
      timeout_sec: 1,
      channel_ids: [channelId],
      remind_every_sec: 2,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data as { id: string };
  };
  /** A PagerDuty channel to the receiver, as `who`. */
  const pagerduty = async (name: string, who: Who) =>
    (await s.call("POST", "/api/v1/channels", { name, type: "pagerduty", config: vendorConfig(v, "pagerduty", who) }))
      .body.data as { id: string };
  const stepsOf = (who: Who) =>
    v
      .of("pagerduty")
      .map((r) => ({ ...stepOf("pagerduty", r), status: r.status }))
      .filter((x) => x.who === who);

  it("a reminder still being sent when the monitor recovers lands before the resolve", async () => {
    const channel = await pagerduty("pd", "primary");
    target.healthy = false;
    const m = await monitor("slow-vendor", channel.id);
    try {
      await v.waitFor("pagerduty", 1);
      // The vendor is slow to take the first reminder; the monitor recovers meanwhile.
      const slow = v.holdNext("pagerduty");
      await slow.arrived;
      target.healthy = true;
      await eventually(async () => (await s.call("GET", `/api/v1/monitors/${m.id}`)).body.data.health === "up");
      await sleep(500);
      slow.release();
      await eventually(async () => v.of("pagerduty").some((r) => stepOf("pagerduty", r).step === "resolve"));
      await sleep(300);
      expect(stepsOf("primary").map((x) => x.step)).toEqual(["trigger", "reminder#1", "resolve"]);
      const kinds = (await s.call("GET", `/api/v1/channels/${channel.id}/deliveries`)).body.data.map(
        (d: { kind: string; status: string }) => `${d.kind}:${d.status}`,
      );
      expect(kinds.sort()).toEqual(["reminder:delivered", "resolve:delivered", "trigger:delivered"]);
    } finally {
      await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    }
  });

  it("a reminder waiting to retry when the monitor recovers is dropped, and does not hold the resolve back", async () => {
    const channel = await pagerduty("pd2", "oncall");
    target.healthy = false;
    await monitor("busy-vendor", channel.id);
    await eventually(async () => stepsOf("oncall").length === 1);
    // The vendor is busy: the reminder waits at least 10 s to retry.
    v.answerNext("pagerduty", { status: 503, body: { message: "busy" } });
    await eventually(async () => stepsOf("oncall").some((x) => x.step === "reminder#1"));
    const recovered = Date.now();
    target.healthy = true;
    await eventually(async () => stepsOf("oncall").some((x) => x.step === "resolve"), 9_000);
    expect(Date.now() - recovered).toBeLessThan(9_000);
    await sleep(500);
    expect(stepsOf("oncall").map((x) => `${x.step}:${x.status}`)).toEqual([
      "trigger:202",
      "reminder#1:503",
      "resolve:202",
    ]);
    const kinds = (await s.call("GET", `/api/v1/channels/${channel.id}/deliveries`)).body.data.map(
      (d: { kind: string; status: string }) => `${d.kind}:${d.status}`,
    );
    // (A second reminder may have come due meanwhile: it is cancelled too, never sent.)
    expect([...new Set(kinds)].sort()).toEqual(["reminder:cancelled", "resolve:delivered", "trigger:delivered"]);
  });
});
