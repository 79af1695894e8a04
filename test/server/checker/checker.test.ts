import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useCheckerRig } from "../../support/checker-rig";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { startServer, webhookChannel, httpMonitorId } from "../../support/server";
import { eventually, startTarget } from "../../support/target";

const SECRET = "checker-secret-0123456789";

describe("the checker", () => {
  const s = useCheckerRig(() => startTarget());

  const heartbeats = async (id: string) =>
    (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as {
      status: string;
      status_code: number | null;
      error: string | null;
    }[];
  const { monitor } = s;

  it("records heartbeats, opens and closes an incident, notifies down then up, and publishes it", async () => {
    const channel = await webhookChannel(s, "hook", { url: `${s.receiver.url}/events`, secret: SECRET });
    const m = await s.probe("Site", { channel_ids: [channel.id] });
    await s.call("POST", "/api/v1/status-pages", { slug: "checker-page", title: "Status", monitor_ids: [m.id] });

    await eventually(async () => (await monitor(m.id)).health === "up");
    expect((await heartbeats(m.id))[0]).toMatchObject({ status: "up", status_code: 200, error: null });
    expect((await s.call("GET", "/api/status/checker-page.json", undefined, { key: null })).body.data.status).toBe(
      "operational",
    );

    s.target.healthy = false;
    await eventually(async () => (await monitor(m.id)).health === "down");
    expect((await heartbeats(m.id))[0]).toMatchObject({
      status: "down",
      status_code: 503,
      error: "unexpected status 503",
    });
    expect((await s.call("GET", "/api/status/checker-page.json", undefined, { key: null })).body.data.status).toBe(
      "down",
    );

    s.target.healthy = true;
    await eventually(async () => (await monitor(m.id)).health === "up");
    const [down, up] = await s.receiver.waitFor(2);
    for (const got of [down, up]) {
      const expected = `sha256=${createHmac("sha256", SECRET)
        .update(got?.body ?? "")
        .digest("hex")}`;
      expect(got?.headers["x-signature"]).toBe(expected);
    }
    expect(JSON.parse(down?.body ?? "")).toMatchObject({
      event: "monitor.down",
      monitor: { id: m.id, name: "Site" },
      heartbeat: { status: "down" },
    });
    expect(JSON.parse(up?.body ?? "")).toMatchObject({
      event: "monitor.up",
      monitor: { id: m.id },
      heartbeat: { status: "up" },
    });

    const stats = (await s.call("GET", `/api/v1/monitors/${m.id}/stats?days=1`)).body.data;
    expect(stats.incidents).toBe(1);
    expect(stats.down_checks).toBeGreaterThan(0);
    expect(stats.up_checks).toBeGreaterThan(0);
    expect(stats.uptime_pct).toBeGreaterThan(0);
    expect(stats.uptime_pct).toBeLessThan(100);
    expect(stats.downtime_sec).toBeGreaterThanOrEqual(0);
    expect(stats.daily[0].checks).toBe(stats.checks);
    const doc = (await s.call("GET", "/api/status/checker-page.json", undefined, { key: null })).body.data;
    expect(doc).toMatchObject({ status: "operational", monitors: [{ name: "Site", status: "up" }] });
    expect(doc.monitors[0].uptime_pct_24h).toBeLessThan(100);
  });

  it("stops heartbeats at once on pause and restarts them on resume", async () => {
    const m = await s.probe("pausable");
    await eventually(async () => (await heartbeats(m.id)).length >= 2);
    await s.call("POST", `/api/v1/monitors/${m.id}/pause`);
    const atPause = (await heartbeats(m.id)).length;
    await new Promise((r) => setTimeout(r, 4500));
    expect((await heartbeats(m.id)).length).toBe(atPause);
    await s.call("POST", `/api/v1/monitors/${m.id}/resume`);
    await eventually(async () => (await heartbeats(m.id)).length >= atPause + 2);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
  });

  it("applies a PATCHed target on the next run", async () => {
    const other = await startTarget();
    other.healthy = false;
    try {
      const m = await s.probe("moving");
      await eventually(async () => (await monitor(m.id)).health === "up");
      await s.call("PATCH", `/api/v1/monitors/${m.id}`, { url: other.url });
      await eventually(async () => (await monitor(m.id)).health === "down");
      expect(other.hits).toBeGreaterThan(0);
      await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    } finally {
      await other.close();
    }
  });

  it("matches keywords by the case rule, follows redirects only when asked, and checks TCP ports", async () => {
    s.target.body = "Service Status: HEALTHY";
    const make = async (body: Record<string, unknown>) =>
      (await s.call("POST", "/api/v1/monitors", { interval_sec: 2, timeout_sec: 1, name: "probe", ...body })).body.data
        .id as string;
    const insensitive = await make({ type: "keyword", url: s.target.url, keyword: "healthy" });
    const sensitive = await make({
      type: "keyword",
      url: s.target.url,
      keyword: "healthy",
      keyword_case_sensitive: true,
    });
    const follows = await make({ type: "http", url: `${s.target.url}/redirect`, expected_status_codes: [200] });
    const stays = await make({
      type: "http",
      url: `${s.target.url}/redirect`,
      expected_status_codes: [200],
      follow_redirects: false,
    });
    const listener = createServer(() => undefined);
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as { port: number }).port;
    const closedPort = await new Promise<number>((resolve) => {
      const tmp = createServer().listen(0, "127.0.0.1", () => {
        const p = (tmp.address() as { port: number }).port;
        tmp.close(() => resolve(p));
      });
    });
    const tcpUp = await make({ type: "tcp", url: `tcp://127.0.0.1:${port}` });
    const tcpDown = await make({ type: "tcp", url: `tcp://127.0.0.1:${closedPort}` });
    try {
      const expected: Record<string, string> = {
        [insensitive]: "up",
        [sensitive]: "down",
        [follows]: "up",
        [stays]: "down",
        [tcpUp]: "up",
        [tcpDown]: "down",
      };
      await eventually(async () => {
        for (const [id, health] of Object.entries(expected)) if ((await monitor(id)).health !== health) return false;
        return true;
      });
      expect((await heartbeats(sensitive))[0]?.error).toMatch(/keyword "healthy" not found/);
      expect((await heartbeats(stays))[0]?.status_code).toBe(302);
    } finally {
      for (const id of [insensitive, sensitive, follows, stays, tcpUp, tcpDown])
        await s.call("DELETE", `/api/v1/monitors/${id}`);
      listener.close();
      s.target.body = "All systems OK";
    }
  });
});

describe("the checker's outbound policy and restarts", () => {
  it("refuses private targets at create time, and at connect time when stored while they were allowed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "checker-policy-"));
    const target = await startTarget();
    const db = join(dir, "u.db");
    try {
      const first = await startServer({ db, checker: false, minIntervalSec: 1, allowPrivateTargets: true });
      const refused = await first.call("POST", "/api/v1/monitors", {
        name: "meta",
        type: "http",
        url: "http://169.254.169.254/latest",
        interval_sec: 2,
        timeout_sec: 1,
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details[0]).toMatchObject({
        field: "url",
        message: expect.stringMatching(/linkLocal/),
      });
      const local = await httpMonitorId(first, "local", target.url, { interval_sec: 2, timeout_sec: 1 });
      await first.close();
      const s = await startServer({
        db,
        checker: true,
        minIntervalSec: 1,
        allowPrivateTargets: false,
        devKey: first.key,
      });
      try {
        const created = await s.call("POST", "/api/v1/monitors", {
          name: "again",
          type: "http",
          url: target.url,
          interval_sec: 2,
        });
        expect(created.status).toBe(422);
        const beat = await eventually(
          async () => (await s.call("GET", `/api/v1/monitors/${local}/heartbeats`)).body.data[0],
        );
        expect(beat.error).toMatch(/outbound policy.*loopback/);
        expect(target.hits).toBe(0);
      } finally {
        await s.close();
      }
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("resumes the schedule from the database after a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "checker-restart-"));
    const target = await startTarget();
    const db = join(dir, "u.db");
    try {
      const first = await startServer({ db, checker: true, minIntervalSec: 1 });
      const id = await httpMonitorId(first, "persist", target.url, { interval_sec: 2, timeout_sec: 1 });
      await eventually(
        async () => (await first.call("GET", `/api/v1/monitors/${id}/heartbeats`)).body.data.length >= 1,
      );
      await first.close();
      const hitsAtStop = target.hits;
      const second = await startServer({ db, devKey: first.key, checker: true, minIntervalSec: 1 });
      try {
        await eventually(async () => target.hits >= hitsAtStop + 2);
        expect(second.app.checker.stats().scheduled).toBe(1);
      } finally {
        await second.close();
      }
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
