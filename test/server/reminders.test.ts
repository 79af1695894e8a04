import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVendorReceiver, type Vendor, type VendorReceiver } from "../../server/testing";
import { newKey, startServer, type TestServer, httpMonitorId } from "../support/server";
import { eventually, startTarget, type Target } from "../support/target";
import { stepOf, VENDORS, vendorConfig, type Who } from "../support/vendor-steps";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The reminders' period across the restarts: a server sends only the latest reminder due, so a stop
 * and start (with its store's opening) that took longer than one period would skip a number. Six
 * seconds leave a loaded machine room for them; three did not.
 */
const REMIND_EVERY_SEC = 6;

/**
 * One monitor alerts a channel of every vendor and escalates to a second one of each; the server
 * stops before the first reminder and again after the second. Each vendor's record is then read
 * back from its own payloads (test/support/vendor-steps.ts).
 */
describe("reminders and escalation on every vendor, across restarts", () => {
  const dir = mkdtempSync(join(tmpdir(), "uptime-reminders-"));
  let v: VendorReceiver;
  let target: Target;
  let incidentId: string;
  const steps = (vendor: Vendor, who: Who) =>
    v
      .of(vendor)
      .map((r) => stepOf(vendor, r))
      .filter((x) => x.who === who);
  const everyVendor = (pred: (vendor: Vendor) => boolean) => VENDORS.every(pred);
  const has = (vendor: Vendor, who: Who, step: string) => steps(vendor, who).some((x) => x.step === step);

  beforeAll(async () => {
    v = await startVendorReceiver();
    target = await startTarget();
    const db = join(dir, "alerts.db");
    const key = newKey();
    const start = () =>
      startServer({ db, devKey: key, checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [50], alertTickMs: 100 });
    let s: TestServer = await start();
    try {
      const channel = async (vendor: Vendor, who: Who) =>
        (
          await s.call("POST", "/api/v1/channels", {
            name: `${vendor}-${who}`,
            type: vendor,
            config: vendorConfig(v, vendor, who),
          })
        ).body.data.id as string;
      const primary = await Promise.all(VENDORS.map((x) => channel(x, "primary")));
      const oncall = await Promise.all(VENDORS.map((x) => channel(x, "oncall")));
      target.healthy = false;
      const created = await s.call("POST", "/api/v1/monitors", {
        name: "checkout",
        type: "http",
        url: target.url,
        interval_sec: 2,
        timeout_sec: 1,
        channel_ids: primary,
        remind_every_sec: REMIND_EVERY_SEC,
        escalation: [{ after: 4, channels: oncall }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data).toMatchObject({
        remind_every_sec: REMIND_EVERY_SEC,
        escalation: [{ after: 4, channels: oncall }],
      });

      // Down: the trigger. The server stops before the first reminder is due…
      await eventually(async () => everyVendor((x) => has(x, "primary", "trigger")));
      const triggeredAt = Date.now();
      await s.close();
      await sleep(triggeredAt + REMIND_EVERY_SEC * 1000 + 300 - Date.now());
      // …and the next one sends it (and, past 4 s, the escalation), once.
      s = await start();
      await eventually(async () =>
        everyVendor((x) => has(x, "primary", "reminder#2") && has(x, "oncall", "escalation#1")),
      ).catch((err) => {
        console.log(
          "requests so far:",
          v.received.map((r) => [r.vendor, r.status, r.vendor === "unknown" ? r.path : stepOf(r.vendor, r)]),
        );
        throw err;
      });
      // A restart right after a reminder does not send it again.
      await s.close();
      s = await start();
      await sleep(800);
      target.healthy = true;
      await eventually(async () => everyVendor((x) => has(x, "primary", "resolve") && has(x, "oncall", "resolve")));
      incidentId = (await s.call("GET", `/api/v1/channels/${primary[0]}/deliveries`)).body.data[0].incident_id;
      await sleep(500);
    } finally {
      await s.close();
      target.healthy = true;
    }
  }, 120_000);
  afterAll(async () => {
    await v.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(VENDORS)(
    "%s hears trigger, reminders, escalation and resolve of one incident, none lost or repeated",
    (vendor) => {
      for (const r of v.of(vendor)) expect(r.problems, `${vendor} refused ${r.path}`).toEqual([]);
      const primary = steps(vendor, "primary").map((x) => x.step);
      const oncall = steps(vendor, "oncall").map((x) => x.step);
      // Reminders numbered 1, 2, … each sent once: the one due while the server was stopped came
      // when it started again, none was repeated by a restart.
      const reminders = primary.slice(1, -1);
      expect(primary[0]).toBe("trigger");
      expect(reminders).toEqual(reminders.map((_, i) => `reminder#${i + 1}`));
      expect(reminders.length).toBeGreaterThanOrEqual(2);
      expect(primary.at(-1)).toBe("resolve");
      // The escalated channel: the step once, then the reminders after it, then the resolve.
      expect(oncall[0]).toBe("escalation#1");
      expect(oncall.slice(1, -1)).toEqual(reminders.filter((x) => oncall.includes(x)));
      expect(oncall.at(-1)).toBe("resolve");
      // Reminders and escalations name the locations that found it down, as the trigger does.
      for (const r of v.of(vendor).filter((x) => stepOf(vendor, x).step !== "resolve")) {
        expect(JSON.stringify(r.body), stepOf(vendor, r).step).toMatch(
          /Down at location local|"failed_locations":(\["local"\]|"local")/,
        );
      }
      // One incident: one key (dedup key, alias, or the id in the message) everywhere.
      expect(new Set(v.of(vendor).map((r) => stepOf(vendor, r).incident))).toEqual(new Set([incidentId]));
    },
  );
});

describe("reminders and escalation in a maintenance window", () => {
  it("skips the reminders due inside it and sends an escalation step reached inside it when it ends", async () => {
    const v = await startVendorReceiver();
    const target = await startTarget();
    const s = await startServer({ checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [50], alertTickMs: 100 });
    try {
      const channel = async (who: Who) =>
        (
          await s.call("POST", "/api/v1/channels", {
            name: who,
            type: "pagerduty",
            config: vendorConfig(v, "pagerduty", who),
          })
        ).body.data.id;
      const [primary, oncall] = [await channel("primary"), await channel("oncall")];
      const steps = (who: Who) =>
        v
          .of("pagerduty")
          .map((r) => ({ ...stepOf("pagerduty", r), at: r.at }))
          .filter((x) => x.who === who);
      target.healthy = false;
      const monitorId = await httpMonitorId(s, "db", target.url, {
        interval_sec: 2,
        timeout_sec: 1,
        channel_ids: [primary],
        remind_every_sec: 3,
        escalation: [{ after: 4, channels: [oncall] }],
      });
      await eventually(async () => steps("primary").length === 1);
      // Reminders 1 and 2 (at 3 and 6 s) and the escalation (at 4 s) fall inside the window.
      const endsAt = Date.now() + 7_000;
      const window = await s.call("POST", "/api/v1/maintenance-windows", {
        name: "db upgrade",
        monitor_ids: [monitorId],
        starts_at: new Date(Date.now() - 1_000).toISOString(),
        ends_at: new Date(endsAt).toISOString(),
        time_zone: "UTC",
      });
      expect(window.status, JSON.stringify(window.body)).toBe(201);
      await sleep(endsAt - 300 - Date.now());
      expect(v.of("pagerduty").length).toBe(1);
      await eventually(
        async () => steps("oncall").length >= 1 && steps("primary").some((x) => x.step.startsWith("reminder")),
      );
      const escalation = steps("oncall")[0];
      expect(escalation?.step).toBe("escalation#1");
      expect(escalation?.at).toBeGreaterThanOrEqual(endsAt);
      target.healthy = true;
      await eventually(
        async () => steps("primary").at(-1)?.step === "resolve" && steps("oncall").at(-1)?.step === "resolve",
      );
      expect(steps("primary").map((x) => x.step)).toEqual(["trigger", "reminder#3", "resolve"]);
      expect(steps("oncall").map((x) => x.step)).toEqual(["escalation#1", "reminder#3", "resolve"]);
    } finally {
      await s.close();
      await v.close();
      await target.close();
    }
  });
});

describe("reminder and escalation settings", () => {
  it("refuses reminders more often than the server's minimum interval, and an escalation to an unknown channel", async () => {
    const s = await startServer({ minIntervalSec: 30 });
    try {
      const res = await s.call("POST", "/api/v1/monitors", {
        name: "m",
        type: "http",
        url: "https://example.com",
        interval_sec: 60,
        remind_every_sec: 10,
        escalation: [{ after: 60, channels: ["chn_nope"] }],
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(["remind_every_sec", "escalation[0].channels[0]"]),
      );
    } finally {
      await s.close();
    }
  });
});
