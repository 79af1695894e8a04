import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVendorReceiver, type VendorReceiver, type VendorRequest } from "../../server/testing";
import { newKey, startServer, type TestServer } from "../support/server";
import { eventually, startTarget, type Target } from "../support/target";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- vendor payloads read as JSON

const PRIMARY = "Primary0Key00000000000000000000a";
const ONCALL = "Oncall00Key00000000000000000000b";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A PagerDuty request as `action[:notification[#n]]`, e.g. `trigger:reminder#2`. */
const step = (r: VendorRequest): string => {
  const body = r.body as Json;
  const details = body.payload?.custom_details ?? {};
  const n = details.reminder ?? details.escalation;
  return body.event_action === "resolve" ? "resolve" : `${details.notification}${n === undefined ? "" : `#${n}`}`;
};

describe("reminders and escalation", () => {
  const dir = mkdtempSync(join(tmpdir(), "uptime-reminders-"));
  let v: VendorReceiver;
  let target: Target;
  beforeAll(async () => {
    v = await startVendorReceiver();
    target = await startTarget();
  });
  afterAll(async () => {
    await v.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("remind, escalate and resolve with one dedup key, across restarts, with no alert lost or repeated", async () => {
    const db = join(dir, "alerts.db");
    const key = newKey();
    const start = () => startServer({ db, devKey: key, checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [50], alertTickMs: 100 });
    const sent = (routingKey: string) => v.of("pagerduty").filter((r) => (r.body as Json).routing_key === routingKey);
    let s: TestServer = await start();
    try {
      const pd = async (name: string, routing_key: string) =>
        (await s.call("POST", "/api/v1/channels", { name, type: "pagerduty", config: { routing_key, api_url: v.url } })).body.data;
      const primary = await pd("primary", PRIMARY);
      const oncall = await pd("on-call", ONCALL);
      target.healthy = false;
      const created = await s.call("POST", "/api/v1/monitors", {
        name: "checkout",
        type: "http",
        url: target.url,
        interval_sec: 2,
        timeout_sec: 1,
        channel_ids: [primary.id],
        remind_every_sec: 3,
        escalation: [{ after: 4, channels: [oncall.id] }],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data).toMatchObject({ remind_every_sec: 3, escalation: [{ after: 4, channels: [oncall.id] }] });

      // Down: the trigger. The server stops before the first reminder is due…
      await eventually(async () => sent(PRIMARY).length === 1);
      const triggeredAt = Date.now();
      await s.close();
      await sleep(triggeredAt + 3_300 - Date.now());
      // …and the next one sends it (and, past 4 s, the escalation), once.
      s = await start();
      await eventually(async () => sent(PRIMARY).some((r) => step(r) === "reminder#1") && sent(ONCALL).length >= 1).catch((err) => {
        console.log("pagerduty requests so far:", v.of("pagerduty").map((r) => [(r.body as Json).routing_key, step(r), r.status]));
        throw err;
      });
      await eventually(async () => sent(PRIMARY).some((r) => step(r) === "reminder#2"));
      // A restart right after a reminder does not send it again.
      await s.close();
      s = await start();
      await sleep(800);
      target.healthy = true;
      await eventually(async () => sent(PRIMARY).some((r) => step(r) === "resolve") && sent(ONCALL).some((r) => step(r) === "resolve"));
      await sleep(500);

      for (const r of v.of("pagerduty")) expect(r.problems).toEqual([]);
      const primarySteps = sent(PRIMARY).map(step);
      const oncallSteps = sent(ONCALL).map(step);
      console.log({ primarySteps, oncallSteps });
      expect(primarySteps[0]).toBe("trigger");
      expect(primarySteps.at(-1)).toBe("resolve");
      expect(oncallSteps[0]).toBe("escalation#1");
      expect(oncallSteps.at(-1)).toBe("resolve");
      // Reminders numbered 1, 2, … each sent once: the one due while the server was stopped came
      // when it started again, none was repeated by a restart.
      const reminders = primarySteps.filter((x) => x.startsWith("reminder"));
      expect(reminders).toEqual(reminders.map((_, i) => `reminder#${i + 1}`));
      expect(reminders.length).toBeGreaterThanOrEqual(2);
      expect(new Set(oncallSteps).size).toBe(oncallSteps.length);
      // One incident: one dedup key everywhere.
      const keys = new Set(v.of("pagerduty").map((r) => (r.body as Json).dedup_key));
      expect(keys.size).toBe(1);
    } finally {
      await s.close();
      target.healthy = true;
    }
  });

  it("refuses reminders more often than the server's minimum interval, and an escalation to an unknown channel", async () => {
    const s = await startServer({ minIntervalSec: 30 });
    try {
      const res = await s.call("POST", "/api/v1/monitors", {
        name: "m", type: "http", url: "https://example.com", interval_sec: 60, remind_every_sec: 10, escalation: [{ after: 60, channels: ["chn_nope"] }],
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(["remind_every_sec", "escalation[0].channels[0]"]));
    } finally {
      await s.close();
    }
  });
});
