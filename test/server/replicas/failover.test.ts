import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toMonitorSpec } from "../../../api";
import { Store } from "../../../server/index";
import { type PrivatePostgres, startPostgres } from "../../../scripts/private-postgres";
import { startReceiver } from "../../support/receiver";
import { newKey } from "../../support/server";
import { serveProcess, writeLoad } from "./serve";

// The scale: 2,000 monitors due every 30 s (about 67 checks a second), with writes beside them.
const MONITORS = 2_000;
const FAILING = 20;
const INTERVAL_MS = 30_000;
// The targets answer at once: a short timeout keeps the lease (and the wait after the kill) short.
const TIMEOUT_SEC = 2;
/** The lease of a check: its timeout and the margin (see server/checker/check-leases.ts). */
const LEASE_MS = TIMEOUT_SEC * 1000 + 10_000;

const dir = mkdtempSync(join(tmpdir(), "uptime-failover-"));
let postgres: PrivatePostgres | undefined;
afterAll(() => {
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("two replicas on one PostgreSQL", () => {
  it("lose no acknowledged write, run no check twice in a period, take over a killed replica's checks within a lease, and notify once", async () => {
    postgres = await startPostgres();
    const db = await postgres.createDatabase();
    const keyFile = join(dir, "secret.key");
    const key = newKey();
    const target = createServer((req, res) => res.writeHead(req.url?.startsWith("/down") ? 503 : 200).end("ok"));
    target.listen(0, "127.0.0.1");
    await once(target, "listening");
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const receiver = await startReceiver();

    const seed = await Store.open(db, { secretKeyFile: keyFile });
    const accountId = (await seed.keys.create("acme", "dev", key)).info.account;
    const account = (await seed.keys.authenticate(key))?.accountId as string;
    expect(accountId).toBe("acme");
    await seed.keys.setMonitorLimit("acme", MONITORS + 10);
    const channel = await seed.channels.create(account, "hook", "webhook", { url: `${receiver.url}/hook` } as never);
    await seed.db.transaction(async () => {
      for (let i = 0; i < MONITORS; i++) {
        const failing = i < FAILING;
        const spec = toMonitorSpec({
          name: `m${i}`,
          type: "http",
          url: `${targetUrl}/${failing ? "down" : "ok"}/${i}`,
          interval_sec: INTERVAL_MS / 1000,
          timeout_sec: TIMEOUT_SEC,
          channel_ids: failing ? [channel.id] : [],
        });
        await seed.monitors.create(account, spec);
      }
    });
    await seed.close();

    const args = ["--secret-key-file", keyFile, "--rate-limit", "100000"];
    const [a, b] = await Promise.all([serveProcess(db, key, args), serveProcess(db, key, args)]);
    const accepted: string[] = [];
    let writing = true;
    const writers = Promise.all([a, a, b, b].map((s) => writeLoad(s, accepted, () => writing)));
    try {
      await new Promise((r) => setTimeout(r, INTERVAL_MS + 5_000));
      const killedAt = Date.now();
      a.child.kill("SIGKILL");
      await once(a.child, "exit");
      const writtenAtKill = accepted.length;
      // Until every monitor has been checked since the kill (within a period and a lease, if the
      // takeover holds), and no longer than that and 10 s: what is judged below is when each came.
      const watcher = await Store.open(db, { secretKeyFile: keyFile });
      try {
        const deadline = killedAt + INTERVAL_MS + LEASE_MS + 10_000;
        const checkedSinceKill = async () =>
          Number(
            (
              (await watcher.db
                .prepare("SELECT COUNT(DISTINCT monitor_id) AS n FROM heartbeats WHERE checked_at >= ?")
                .get(killedAt)) as { n: number | string }
            ).n,
          );
        while (Date.now() < deadline && (await checkedSinceKill()) < MONITORS) {
          await new Promise((r) => setTimeout(r, 1_000));
        }
      } finally {
        await watcher.close();
      }
      writing = false;
      await writers;
      const ready = await b.call("GET", "/readyz");
      expect(ready.status, b.log().slice(-3000)).toBe(200);
      expect(accepted.length).toBeGreaterThan(writtenAtKill);
      b.child.kill("SIGTERM");
      await once(b.child, "exit");

      const store = await Store.open(db, { secretKeyFile: keyFile });
      try {
        const stored = new Set(
          ((await store.db.prepare("SELECT id FROM channels").all()) as { id: string }[]).map((r) => r.id),
        );
        const lost = accepted.filter((id) => !stored.has(id));
        const beats = (await store.db
          .prepare("SELECT monitor_id, checked_at FROM heartbeats ORDER BY monitor_id, checked_at")
          .all()) as { monitor_id: string; checked_at: number }[];
        const byMonitor = new Map<string, number[]>();
        for (const h of beats) byMonitor.set(h.monitor_id, [...(byMonitor.get(h.monitor_id) ?? []), h.checked_at]);
        let twice = 0;
        let minGap = Infinity;
        let worstTakeover = 0;
        const late: string[] = [];
        for (const [id, times] of byMonitor) {
          for (let i = 1; i < times.length; i++) {
            const gap = (times[i] as number) - (times[i - 1] as number);
            minGap = Math.min(minGap, gap);
            if (gap < INTERVAL_MS / 2) twice++;
          }
          // The first check after the kill comes no later than one period and one lease after the last before it.
          const before = times.filter((t) => t < killedAt).at(-1) ?? killedAt;
          const after = times.find((t) => t >= killedAt);
          const wait = (after ?? Infinity) - before;
          worstTakeover = Math.max(worstTakeover, wait);
          if (wait > INTERVAL_MS + LEASE_MS + 5_000) late.push(`${id}: ${times.map((t) => t - killedAt).join(",")}`);
        }
        const notices = receiver.received.map(
          (r) => JSON.parse(r.body) as { incident?: { id: string }; notification?: string; monitor: { id: string } },
        );
        const keys = notices.map((n) => `${n.incident?.id ?? n.monitor.id}/${n.notification ?? "notice"}`);
        const duplicates = keys.length - new Set(keys).size;
        console.log(
          `failover: ${accepted.length} writes acknowledged (${writtenAtKill} before the kill), ${lost.length} lost; ${beats.length} checks of ${byMonitor.size} monitors; ` +
            `${twice} twice in one period (closest two ${minGap} ms apart); longest wait across the kill ${worstTakeover} ms, ${late.length} later than a period and a lease; ` +
            `${notices.length} notifications, ${duplicates} duplicates`,
        );
        expect(lost).toEqual([]);
        expect(byMonitor.size).toBe(MONITORS);
        expect(twice).toBe(0);
        expect(late).toEqual([]);
        expect(duplicates).toBe(0);
        expect(notices.length).toBeGreaterThanOrEqual(FAILING);
      } finally {
        await store.close();
      }
    } finally {
      writing = false;
      for (const s of [a, b]) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
      target.close();
      await receiver.close();
    }
  }, 420_000);
});
