import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import { startServer, type TestServer } from "../support/server";

import { RateBudget } from "../../provider/client/rate-budget";

type ClientModule = typeof import("../../provider/client/client");

/** A fresh copy of the client module: its own budgets, as in another provider process. */
async function processCopy(): Promise<ClientModule> {
  vi.resetModules();
  return import("../../provider/client/client.js");
}

/** A proxy that drops the rate-limit headers: a server that does not send them. */
async function startStrippingProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(async (req, res) => {
    const upstream = await request(`${target}${req.url}`, {
      method: req.method as "GET",
      headers: { authorization: req.headers.authorization ?? "" },
    });
    const body = await upstream.body.text();
    res.writeHead(upstream.statusCode, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("rate budget", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function limitedServer(
    rateLimit: number,
    rateLimitWindowMs: number,
  ): Promise<{ s: TestServer; proxy: FaultProxy }> {
    const s = await startServer({ rateLimit, rateLimitWindowMs });
    const proxy = await startFaultProxy(s.url);
    cleanups.push(
      () => s.close(),
      () => proxy.close(),
    );
    return { s, proxy };
  }

  it("spends the whole window at once and waits for the reset only when the server says it is spent", async () => {
    // A window of 12 s: the first 19 must end inside it, which took up to 7 s on a loaded machine.
    const { s, proxy } = await limitedServer(20, 12_000);
    const { UptimeClient } = await processCopy();
    // Pacing of a server without headers would be 1 request per second: following them is faster.
    const client = new UptimeClient({ baseUrl: proxy.url, apiKey: s.key }, { requestsPerMinute: 60, maxRetries: 0 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 19 }, () => client.request("GET", "/api/v1/monitors")));
    // Inside the window; paced at 1 per second they would take 18 s.
    expect(Date.now() - started).toBeLessThan(10_000);
    await Promise.all(Array.from({ length: 20 }, () => client.request("GET", "/api/v1/monitors")));
    // The window had one left: the other 19 waited for its reset.
    expect(Date.now() - started).toBeGreaterThanOrEqual(11_900);
    expect(proxy.seen).toHaveLength(39);
    expect(proxy.seen.filter((l) => !l.endsWith(" 200"))).toEqual([]);
  });

  it("two processes sharing a key both finish without a single refused request", async () => {
    const { s, proxy } = await limitedServer(30, 2000);
    const [a, b] = [await processCopy(), await processCopy()];
    const clients = [a, b].map((m) => new m.UptimeClient({ baseUrl: proxy.url, apiKey: s.key }, { maxRetries: 0 }));
    const results = await Promise.allSettled(
      clients.flatMap((c) => Array.from({ length: 40 }, () => c.request("GET", "/api/v1/monitors"))),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(proxy.seen).toHaveLength(80);
    expect(proxy.seen.filter((l) => !l.endsWith(" 200"))).toEqual([]);
  });

  it("a 429 is waited out with Retry-After and retried, never surfaced", async () => {
    const { s, proxy } = await limitedServer(5, 1000);
    const { UptimeClient } = await processCopy();
    // Someone else spends the whole window first.
    for (let i = 0; i < 5; i++) await s.call("GET", "/api/v1/monitors");
    const client = new UptimeClient({ baseUrl: proxy.url, apiKey: s.key }, { maxRetries: 3 });
    const res = await client.request<unknown[]>("GET", "/api/v1/monitors");
    expect(Array.isArray(res.data)).toBe(true);
    expect(proxy.seen).toEqual(["GET /api/v1/monitors 429", "GET /api/v1/monitors 200"]);
  });

  it("while another client keeps spending the key, requests wait for the window as one queue and none runs out of attempts", async () => {
    const { s, proxy } = await limitedServer(10, 1000);
    const { UptimeClient } = await processCopy();
    // The other client spends every window as soon as it opens, for 3 s, ignoring the headers.
    const spend = () => s.call("GET", "/api/v1/monitors");
    for (let i = 0; i < 10; i++) await spend();
    let hogging = true;
    const hog = (async () => {
      while (hogging) {
        await spend();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    setTimeout(() => (hogging = false), 3000);
    // No retry at all for failures: waiting for the rate limit is not one.
    const client = new UptimeClient({ baseUrl: proxy.url, apiKey: s.key }, { maxRetries: 0, notify: () => undefined });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => client.request("GET", "/api/v1/monitors")),
    );
    await hog;
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(proxy.seen.filter((l) => l.endsWith(" 200"))).toHaveLength(8);
    // One probe per reset was refused, not every request on its own.
    const refused = proxy.seen.filter((l) => l.endsWith(" 429")).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(6);
  });

  it("a long wait is announced once with the time left, and a request still waiting at its deadline fails as rate_limited", async () => {
    const { s, proxy } = await limitedServer(12, 7000);
    const { UptimeClient } = await processCopy();
    for (let i = 0; i < 12; i++) await s.call("GET", "/api/v1/monitors");
    const notices: string[] = [];
    const client = new UptimeClient({ baseUrl: proxy.url, apiKey: s.key }, { notify: (m) => notices.push(m) });
    const started = Date.now();
    const late = await client.request("GET", "/api/v1/monitors", { deadline: started + 800 }).catch((e: unknown) => e);
    expect(late).toMatchObject({ code: "rate_limited", status: 429 });
    expect((late as Error).message).toMatch(
      /rate limit was still spent at this request's deadline, after 1 s of waiting \(it reopens in \d s\)/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    const results = await Promise.allSettled(
      Array.from({ length: 3 }, () => client.request("GET", "/api/v1/monitors")),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5500);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^uptime: the API at http:\/\/127\.0\.0\.1:\d+ says this API key has used its limit of 12 requests per window; requests wait [67] s for it to reopen/,
    );
    expect(notices.join("")).not.toContain(s.key);
    expect(proxy.seen.filter((l) => l.endsWith(" 429"))).toHaveLength(1);
  });

  it("paces a server without the headers at the configured rate", async () => {
    const s = await startServer();
    const stripping = await startStrippingProxy(s.url);
    cleanups.push(
      () => s.close(),
      () => stripping.close(),
    );
    const { UptimeClient } = await processCopy();
    const client = new UptimeClient({ baseUrl: stripping.url, apiKey: s.key }, { requestsPerMinute: 120 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => client.request("GET", "/api/v1/monitors")));
    // The first answer shows no headers; the other five go 2 per second, the last in the third second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it("a request queued just as the window reopens still goes when nothing else is in flight", async () => {
    // The allowance is judged 1 ms before the reset and the wake-up 1 ms after (a pause of the
    // process between the two): the request must not wait for an answer that will never come.
    let now = 1_000_000;
    let ticking = false;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => (ticking ? now++ : now));
    try {
      const budget = new RateBudget({
        fallback: async () => (fn) => fn(),
        blindWait: () => 10,
        notify: () => undefined,
        label: "test",
      });
      (await budget.acquire())({}, 429); // no rate-limit headers: spent for the blind wait (10 ms)
      now += 9;
      ticking = true;
      const went = await Promise.race([
        budget.acquire().then(() => "went"),
        new Promise((r) => setTimeout(() => r("stuck"), 2000)),
      ]);
      expect(went).toBe("went");
    } finally {
      clock.mockRestore();
    }
  });
});
