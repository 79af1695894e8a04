import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "../../support/store-engines";
import { startServer, type TestServer } from "../../support/server";
import { eventually } from "../../support/target";

const MONITORS = 20;
const INTERVAL_MS = 2_000;

describe("two replicas on one PostgreSQL, sharing the checks", () => {
  it("keep timers only for the monitors each owns, check every monitor once a period, and take all on when one leaves", async () => {
    const hits = new Map<string, number[]>();
    const target = createServer((req, res) => {
      hits.set(req.url ?? "", [...(hits.get(req.url ?? "") ?? []), Date.now()]);
      res.writeHead(200).end("ok");
    });
    target.listen(0, "127.0.0.1");
    await once(target, "listening");
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const database = await freshDatabase("postgres");
    const servers: TestServer[] = [];
    try {
      const a = await startServer({ ...database, checker: true, minIntervalSec: 1 });
      servers.push(a);
      const b = await startServer({ ...database, devKey: a.key, checker: true, minIntervalSec: 1 });
      servers.push(b);
      for (let i = 0; i < MONITORS; i++) {
        const created = await a.call("POST", "/api/v1/monitors", {
          name: `m${i}`,
          type: "http",
          url: `${targetUrl}/${i}`,
          interval_sec: INTERVAL_MS / 1000,
          timeout_sec: 1,
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
      }
      // Each replica keeps a timer for its own share only; together, for every monitor.
      await eventually(async () => {
        const [sa, sb] = [a.app.checker.stats(), b.app.checker.stats()];
        return (
          sa.scheduled === MONITORS &&
          sb.scheduled === MONITORS &&
          sa.armed > 0 &&
          sb.armed > 0 &&
          sa.armed + sb.armed === MONITORS
        );
      }, 30_000);
      // Every monitor checked in each period, never twice in one (the probes' own delays move a check within its period).
      const from = Date.now();
      await new Promise((r) => setTimeout(r, 3 * INTERVAL_MS + 500));
      for (let i = 0; i < MONITORS; i++) {
        const times = (hits.get(`/${i}`) ?? []).filter((t) => t >= from);
        expect(times.length, `monitor ${i}: ${times.length} checks in three periods`).toBeGreaterThanOrEqual(3);
        for (let j = 1; j < times.length; j++)
          expect(
            (times[j] as number) - (times[j - 1] as number),
            `monitor ${i} checked twice in a period`,
          ).toBeGreaterThan(INTERVAL_MS / 2);
      }
      // One leaves: the other schedules every monitor again and checks each within a period or two.
      await a.close();
      servers.shift();
      const left = Date.now();
      await eventually(async () => b.app.checker.stats().armed === MONITORS, 10_000);
      await eventually(async () => {
        for (let i = 0; i < MONITORS; i++) if (!(hits.get(`/${i}`) ?? []).some((t) => t > left + 1_000)) return false;
        return true;
      }, 4 * INTERVAL_MS);
    } finally {
      for (const s of servers) await s.close();
      target.close();
    }
  }, 90_000);
});
