import { request } from "undici";
import { describe, expect, it } from "vitest";
import { useServer } from "../../support/use-server";

const METRICS_KEY = "metrics-key-kept-answers-0123456789";
const LIMIT = 12;

/** Headers that differ between any two answers: the date, the request's id, the limit's count. */
const PER_REQUEST = new Set(["date", "x-request-id", "x-ratelimit-remaining", "x-ratelimit-reset"]);

const stable = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.has(name)));

describe("public status answers sent from their kept bytes", () => {
  const s = useServer({ metricsKey: METRICS_KEY, publicRateLimit: LIMIT, trustProxy: true });

  /** How many answers of `route` were sent from kept bytes, read from /metrics as an operator does. */
  const kept = async (route: string) => {
    const res = await request(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_KEY}` } });
    const line = (await res.body.text())
      .split("\n")
      .find((l) => l.startsWith(`uptime_http_kept_status_answers_total{route="${route}"}`));
    return line === undefined ? 0 : Number(line.split(" ").at(-1));
  };
  const get = async (path: string, client: string, headers: Record<string, string> = {}) => {
    const res = await request(`${s.url}${path}`, { headers: { "x-forwarded-for": client, ...headers } });
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  };

  it.each([
    ["the JSON document", "/api/status/kept-json.json", "/api/status/:file", "kept-json"],
    ["the HTML page", "/status/kept-html", "/status/:slug", "kept-html"],
  ])(
    "answers %s kept exactly as computed: the same bytes and headers, and 304 to its validator",
    async (_what, path, route, slug) => {
      expect((await s.call("POST", "/api/v1/status-pages", { slug, title: "Kept", sections: [] })).status).toBe(201);
      const before = await kept(route);
      const computed = await get(path, "198.51.100.1");
      expect(computed.status).toBe(200);
      expect(await kept(route)).toBe(before);

      const again = await get(path, "198.51.100.1");
      expect(await kept(route)).toBe(before + 1);
      expect(again.status).toBe(200);
      expect(again.body).toBe(computed.body);
      expect(stable(again.headers)).toEqual(stable(computed.headers));
      expect(again.headers["x-request-id"]).toMatch(/^req_[0-9a-f]+$/);
      expect(again.headers["x-request-id"]).not.toBe(computed.headers["x-request-id"]);
      expect(Number(again.headers["x-ratelimit-remaining"])).toBe(
        Number(computed.headers["x-ratelimit-remaining"]) - 1,
      );

      const unchanged = await get(path, "198.51.100.1", { "if-none-match": String(computed.headers.etag) });
      expect(unchanged.status).toBe(304);
      expect(unchanged.body).toBe("");
      expect(unchanged.headers.etag).toBe(computed.headers.etag);
      expect(await kept(route)).toBe(before + 2);
    },
  );

  it("counts kept answers in the address's public limit, with the answers Fastify sends, then refuses in the envelope", async () => {
    const path = "/api/status/kept-json.json";
    const client = "203.0.113.7";
    const statuses: number[] = [];
    // One computed answer may come first (another test's page), the rest are kept; all count.
    for (let i = 0; i < LIMIT; i++) statuses.push((await get(path, client)).status);
    expect(statuses).toEqual(new Array(LIMIT).fill(200));
    const refused = await get(path, client);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    expect(refused.headers["retry-after"]).toBeDefined();
    // Another address (the proxy's X-Forwarded-For, as trusted) has its own budget.
    expect((await get(path, "203.0.113.8")).status).toBe(200);
  });

  it("leaves a private page to the full path: its document is refused without the password, never sent kept", async () => {
    const created = await s.call("POST", "/api/v1/status-pages", {
      slug: "kept-private",
      title: "Private",
      sections: [],
      password: "correct horse battery",
    });
    expect(created.status).toBe(201);
    const before = await kept("/api/status/:file");
    for (let i = 0; i < 2; i++) {
      const res = await get("/api/status/kept-private.json", "198.51.100.9");
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: "unauthorized" } });
    }
    expect(await kept("/api/status/:file")).toBe(before);
  });
});
