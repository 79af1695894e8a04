import { describe, expect, it } from "vitest";
import { UptimeClient } from "../../provider/client/client";
import { resolveConnection } from "../../provider/client/connection";
import * as runtime from "../../provider/runtime";
import { startFaultProxy } from "../support/fault-proxy";
import { startServer } from "../support/server";
import { useFaultProxy, useServer } from "../support/use-server";

const monitorBody = { name: "retry", type: "http", url: "https://example.com", interval_sec: 60 };

describe("API client", () => {
  const s = useServer();
  const proxy = useFaultProxy(s);
  const client = (over = {}) =>
    new UptimeClient({ baseUrl: proxy.url, apiKey: s.key }, { baseDelayMs: 5, maxDelayMs: 50, ...over });

  it("retries GETs through 5xx and a 429 with Retry-After, and succeeds", async () => {
    proxy.faults.push(
      { match: (m, p) => m === "GET" && p.startsWith("/api/v1/monitors"), status: 503, times: 2 },
      {
        match: (m, p) => m === "GET" && p.startsWith("/api/v1/monitors"),
        status: 429,
        times: 1,
        headers: { "retry-after": "0" },
      },
    );
    const res = await client().request<unknown[]>("GET", "/api/v1/monitors");
    expect(Array.isArray(res.data)).toBe(true);
    expect(proxy.seen.slice(-4)).toEqual([
      "GET /api/v1/monitors 503",
      "GET /api/v1/monitors 503",
      "GET /api/v1/monitors 429",
      "GET /api/v1/monitors 200",
    ]);
  });

  it("keeps the full retry budget for 503s: more of them than a refused connection gets", async () => {
    proxy.faults.push({ match: (m, p) => m === "GET" && p === "/api/v1/monitors", status: 503, times: 5 });
    const res = await client().request<unknown[]>("GET", "/api/v1/monitors");
    expect(Array.isArray(res.data)).toBe(true);
    expect(proxy.seen.slice(-6)).toEqual([...Array(5).fill("GET /api/v1/monitors 503"), "GET /api/v1/monitors 200"]);
  });

  it("retries a create whose response was lost, and the Idempotency-Key keeps it to one monitor", async () => {
    // The server has batched writes: the create goes in a batch, retried whole, its item replayed by key.
    proxy.faults.push({
      match: (m, p) => m === "POST" && p === "/api/v1/monitors/batch",
      status: 502,
      times: 1,
      afterForward: true,
    });
    const created = await runtime.create("Monitor", {
      ...monitorBody,
      intervalSec: 60,
      connection: { baseUrl: proxy.url, apiKey: s.key },
    });
    const named = (await s.call("GET", "/api/v1/monitors?limit=200")).body.data.filter(
      (m: { name: string }) => m.name === "retry",
    );
    expect(named.map((m: { id: string }) => m.id)).toEqual([created.id]);
    expect(proxy.seen.filter((l) => l.startsWith("POST /api/v1/monitors/batch ")).slice(-2)).toEqual([
      "POST /api/v1/monitors/batch 502",
      "POST /api/v1/monitors/batch 200",
    ]);
  });

  it("does not retry a POST without an Idempotency-Key on 5xx", async () => {
    proxy.faults.push({ match: (m, p) => m === "POST" && p === "/api/v1/monitors", status: 500, times: 1 });
    await expect(client().request("POST", "/api/v1/monitors", { body: monitorBody })).rejects.toMatchObject({
      code: "internal_error",
      status: 500,
    });
  });

  it("carries the API's code, field details and request id in its errors", async () => {
    const err = await client()
      .request("POST", "/api/v1/monitors", { body: { ...monitorBody, interval_sec: 5 } })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "validation_failed", status: 422, details: [{ field: "interval_sec" }] });
    expect((err as { requestId: string }).requestId).toMatch(/^req_/);
    expect((err as Error).message).toMatch(/validation_failed \(HTTP 422\).*interval_sec.*request req_/);
    expect((err as Error).message).not.toContain(s.key);
  });

  it("keeps a burst under the server's limit instead of tripping 429s", async () => {
    const limited = await startServer({ rateLimit: 8, rateLimitWindowMs: 1000 });
    const counting = await startFaultProxy(limited.url);
    try {
      const c = new UptimeClient(
        { baseUrl: counting.url, apiKey: limited.key },
        { requestsPerMinute: 240, maxRetries: 0 },
      );
      await Promise.all(Array.from({ length: 12 }, () => c.request("GET", "/api/v1/monitors")));
      expect(counting.seen).toHaveLength(12);
      expect(counting.seen.filter((l) => l.endsWith(" 429"))).toEqual([]);
    } finally {
      await counting.close();
      await limited.close();
    }
  });

  it("refuses a missing key before any request, naming where to set it", () => {
    expect(() => resolveConnection({ baseUrl: "http://127.0.0.1:1" }, {}, {})).toThrow(/uptime:apiKey.*UPTIME_API_KEY/);
    expect(() => resolveConnection({ apiKey: "uk_x", baseUrl: "ftp://x" }, {}, {})).toThrow(/baseUrl/);
    expect(
      resolveConnection(undefined, { apiKey: "uk_cfg", baseUrl: "https://a.example" }, { UPTIME_API_KEY: "uk_env" })
        .apiKey,
    ).toBe("uk_env");
    expect(
      resolveConnection(
        { apiKey: "uk_arg" },
        { apiKey: "uk_cfg", baseUrl: "https://a.example" },
        { UPTIME_API_KEY: "uk_env" },
      ).apiKey,
    ).toBe("uk_arg");
  });
});
