import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { PUSH_RATE_LIMIT } from "../../server/routes/push";
import { startReceiver } from "../support/receiver";
import { startServer, httpMonitorId } from "../support/server";
import { eventually } from "../support/target";
import { useServer, useStarted } from "../support/use-server";

describe("heartbeat (push) monitors", () => {
  const s = useServer({ checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [100] });
  const receiver = useStarted("the receiver", startReceiver);

  const monitor = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
  const ping = async (url: string, method: "GET" | "POST" = "GET", body?: string) => {
    const res = await request(url, {
      method,
      body,
      headers: body ? { "content-type": "application/x-www-form-urlencoded" } : {},
    });
    return { status: res.statusCode, body: (await res.body.json()) as { ok: boolean } };
  };

  it("goes down and notifies when pings stop, and recovers on the next ping", async () => {
    const channel = (
      await s.call("POST", "/api/v1/channels", { name: "hook", type: "webhook", config: { url: `${receiver.url}/p` } })
    ).body.data;
    const created = await s.call("POST", "/api/v1/monitors", {
      name: "nightly job",
      type: "heartbeat",
      interval_sec: 2,
      grace_sec: 1,
      channel_ids: [channel.id],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const m = created.body.data;
    expect(m).toMatchObject({ type: "heartbeat", url: null, interval_sec: 2, grace_sec: 1, health: "pending" });
    const token = await s.call("POST", `/api/v1/monitors/${m.id}/push-token`);
    const pushUrl: string = token.body.data.push_url;
    expect(pushUrl).toMatch(new RegExp(`^${s.url}/api/push/pt_[A-Za-z0-9_-]{32}$`));
    // Only a digest is kept: a read never shows it, the database does not hold it.
    expect(JSON.stringify(await monitor(m.id))).not.toContain(pushUrl.split("/").pop());

    expect(await ping(pushUrl)).toMatchObject({ status: 200, body: { ok: true } });
    expect((await monitor(m.id)).health).toBe("up");
    await eventually(async () => (await monitor(m.id)).health === "down", 10_000);
    const [hb] = (await s.call("GET", `/api/v1/monitors/${m.id}/heartbeats?hours=1`)).body.data;
    expect(hb.error).toMatch(/^no ping for \d+ s \(expected every 2 s, grace 1 s\)$/);

    expect(await ping(pushUrl, "POST", "exit=0")).toMatchObject({ status: 200 });
    expect((await monitor(m.id)).health).toBe("up");
    const [down, up] = await receiver.waitFor(2);
    expect(JSON.parse(down?.body ?? "")).toMatchObject({ event: "monitor.down", monitor: { id: m.id } });
    expect(JSON.parse(up?.body ?? "")).toMatchObject({ event: "monitor.up", monitor: { id: m.id } });

    // A new token replaces the old one.
    const next = (await s.call("POST", `/api/v1/monitors/${m.id}/push-token`)).body.data.push_url;
    expect((await ping(pushUrl)).status).toBe(404);
    expect((await ping(next)).status).toBe(200);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    expect((await ping(next)).status).toBe(404);
  });

  it("rate limits pings per token, and refuses push URLs for other monitor types and a URL on heartbeat monitors", async () => {
    const m = (await s.call("POST", "/api/v1/monitors", { name: "chatty", type: "heartbeat", interval_sec: 60 })).body
      .data;
    const pushUrl = (await s.call("POST", `/api/v1/monitors/${m.id}/push-token`)).body.data.push_url;
    for (let i = 0; i < PUSH_RATE_LIMIT; i++) expect((await ping(pushUrl)).status).toBe(200);
    const limited = await request(pushUrl);
    expect(limited.statusCode).toBe(429);
    expect(((await limited.body.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // Another token has its own budget.
    const other = (await s.call("POST", "/api/v1/monitors", { name: "quiet", type: "heartbeat", interval_sec: 60 }))
      .body.data;
    expect(
      (await ping((await s.call("POST", `/api/v1/monitors/${other.id}/push-token`)).body.data.push_url)).status,
    ).toBe(200);

    const httpId = await httpMonitorId(s, "site", "http://example.test");
    const refused = await s.call("POST", `/api/v1/monitors/${httpId}/push-token`);
    expect(refused.status).toBe(422);
    const withUrl = await s.call("POST", "/api/v1/monitors", {
      name: "x",
      type: "heartbeat",
      url: "http://example.test",
      interval_sec: 60,
      grace_sec: -1,
    });
    expect(withUrl.body.error.details).toEqual([{ field: "grace_sec", message: "must be at least 0" }]);
    const withUrl2 = await s.call("POST", "/api/v1/monitors", {
      name: "x",
      type: "heartbeat",
      url: "http://example.test",
      interval_sec: 60,
    });
    expect(withUrl2.body.error.details).toEqual([
      { field: "url", message: "is not allowed for heartbeat monitors (they are pinged, not probed)" },
    ]);
    for (const id of [m.id, other.id, httpId]) await s.call("DELETE", `/api/v1/monitors/${id}`);
  });

  it("keeps only a digest of the push token in the database files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "push-digest-"));
    const local = await startServer({ db: join(dir, "u.db"), checker: false });
    try {
      const m = (await local.call("POST", "/api/v1/monitors", { name: "job", type: "heartbeat", interval_sec: 60 }))
        .body.data;
      const pushUrl: string = (
        await local.call("POST", `/api/v1/monitors/${m.id}/push-token`, undefined, {
          headers: { "idempotency-key": "once" },
        })
      ).body.data.push_url;
      expect((await ping(pushUrl)).status).toBe(200);
      const token = pushUrl.split("/").pop() as string;
      for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).includes(token)).toBe(false);
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
