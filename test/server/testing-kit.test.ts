import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUptimeServer, type UptimeServer } from "../../server/testing";

describe("pulumi-uptime-server/testing: startUptimeServer", () => {
  let server: UptimeServer;
  const call = async (method: string, path: string, body?: unknown, base = server.url) => {
    const res = await request(`${base}${path}`, {
      method: method as "GET",
      headers: { authorization: `Bearer ${server.apiKey}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return {
      status: res.statusCode,
      headers: res.headers,
      body: (await res.body.json()) as { data: Record<string, unknown> },
    };
  };
  const create = async () =>
    (
      await call("POST", "/api/v1/monitors", {
        name: "API",
        type: "http",
        url: "https://example.com/",
        interval_sec: 60,
      })
    ).body.data.id as string;

  beforeAll(async () => {
    server = await startUptimeServer({ monitorLimit: 10, rateLimit: 1000 });
  });
  afterAll(() => server?.close());

  it("serves the API with a fresh key and the options given", async () => {
    const first = await call("GET", "/api/v1/monitors");
    expect(first.status).toBe(200);
    expect(first.headers["x-ratelimit-limit"]).toBe("1000");
    for (let i = 0; i < 10; i++) await create();
    expect(
      (
        await call("POST", "/api/v1/monitors", {
          name: "x",
          type: "http",
          url: "https://example.com/",
          interval_sec: 60,
        })
      ).status,
    ).toBe(403);
  });

  it("injects 429 bursts, 5xx, latency and dropped responses, then clears them", async () => {
    server.faults.rateLimitBurst(2, { retryAfterSec: 3 });
    const limited = await call("GET", "/api/v1/monitors");
    expect([limited.status, limited.headers["retry-after"]]).toEqual([429, "3"]);
    expect((await call("GET", "/api/v1/monitors")).status).toBe(429);
    expect((await call("GET", "/api/v1/monitors")).status).toBe(200);

    server.faults.serverErrors(1, { status: 502, times: 1 });
    expect((await call("GET", "/api/v1/channels")).status).toBe(502);
    expect((await call("GET", "/api/v1/channels")).status).toBe(200);

    server.faults.latency(150, (_m, p) => p.startsWith("/api/v1/status-pages"));
    const started = Date.now();
    expect((await call("GET", "/api/v1/status-pages")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);

    server.faults.dropResponses(1, { match: (m) => m === "DELETE" });
    const id = (await call("GET", "/api/v1/monitors")).body.data as unknown as { id: string }[];
    await expect(call("DELETE", `/api/v1/monitors/${id[0]?.id}`)).rejects.toThrow();
    // The server did the work: the monitor is gone although no answer came.
    expect((await call("GET", `/api/v1/monitors/${id[0]?.id}`)).status).toBe(404);
    expect(server.faults.requests).toContain(`DELETE /api/v1/monitors/${id[0]?.id} DROPPED`);

    server.faults.clear();
    expect((await call("GET", "/api/v1/monitors")).status).toBe(200);
    expect(() => server.faults.serverErrors(2)).toThrow(/between 0 and 1/);
  });

  it("drifts objects behind the program's back", async () => {
    const [monitor] = (await call("GET", "/api/v1/monitors")).body.data as unknown as { id: string }[];
    const id = monitor?.id as string;
    expect((await server.drift.patchMonitor(id, { interval_sec: 900 })).interval_sec).toBe(900);
    expect((await server.drift.pauseMonitor(id)).status).toBe("paused");
    expect((await server.drift.resumeMonitor(id)).status).toBe("active");
    await server.drift.deleteMonitor(id);
    expect((await call("GET", `/api/v1/monitors/${id}`, undefined, server.directUrl)).status).toBe(404);
    await expect(server.drift.deleteMonitor(id)).rejects.toThrow(/not_found/);
  });

  it("dry-runs a monitor spec and a stored monitor, recording nothing", async () => {
    const spec = { name: "kit", type: "http" as const, url: `${server.directUrl}/healthz`, interval_sec: 60 };
    const result = await server.dryRun(spec);
    expect(result).toMatchObject({ status: "up", status_code: 200, error: null });
    const id = (await call("POST", "/api/v1/monitors", { ...spec, url: `${server.directUrl}/nowhere` })).body.data
      .id as string;
    expect(await server.dryRun(id)).toMatchObject({ status: "down", error_class: "http", status_code: 404 });
    expect((await call("GET", `/api/v1/monitors/${id}/heartbeats`)).body.data).toEqual([]);
    await expect(server.dryRun({ ...spec, interval_sec: 5 })).rejects.toThrow(/interval_sec/);
  });
});
