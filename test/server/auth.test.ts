import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey, startServer, type TestServer, emailChannel } from "../support/server";

const monitor = (name = "m") => ({ name, type: "http", url: "https://example.com", interval_sec: 60 });

describe("API keys and accounts", () => {
  let s: TestServer;
  let otherKey: string;
  beforeAll(async () => {
    s = await startServer();
    otherKey = (await s.app.store.keys.create("other-account", "test")).key;
  });
  afterAll(() => s.close());

  it("refuses missing, malformed, unknown and revoked keys with the same 401", async () => {
    const revoked = await s.app.store.keys.create("revoked-account", null);
    expect(await s.app.store.keys.revoke(revoked.info.id)).toBe(true);
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Basic abc" },
      { authorization: `Bearer ${newKey()}` },
      { authorization: `Bearer ${revoked.key}` },
      { authorization: "Bearer uk_" },
    ]) {
      const res = await s.call("GET", "/api/v1/monitors", undefined, { key: null, headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(JSON.stringify(res.body)).not.toContain(revoked.key);
    }
  });

  it("stores keys only as hashes", async () => {
    const { key } = await s.app.store.keys.create("hash-check", null);
    const rows = await s.app.store.db.prepare("SELECT * FROM api_keys").all();
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(JSON.stringify(rows)).not.toContain(key.slice(11));
  });

  it("keeps two accounts apart: another account's ids are 404s and never listed", async () => {
    const mine = (await s.call("POST", "/api/v1/monitors", monitor("mine"))).body.data;
    const channel = await emailChannel(s, "c", "a@example.com");
    const theirs = { key: otherKey };
    expect((await s.call("GET", `/api/v1/monitors/${mine.id}`, undefined, theirs)).status).toBe(404);
    expect((await s.call("PATCH", `/api/v1/monitors/${mine.id}`, { name: "x" }, theirs)).status).toBe(404);
    expect((await s.call("DELETE", `/api/v1/monitors/${mine.id}`, undefined, theirs)).status).toBe(404);
    expect((await s.call("POST", `/api/v1/monitors/${mine.id}/pause`, undefined, theirs)).status).toBe(404);
    expect((await s.call("GET", `/api/v1/channels/${channel.id}`, undefined, theirs)).status).toBe(404);
    expect((await s.call("GET", "/api/v1/monitors", undefined, theirs)).body.data).toEqual([]);
    const borrowing = await s.call("POST", "/api/v1/monitors", { ...monitor(), channel_ids: [channel.id] }, theirs);
    expect(borrowing.status).toBe(422);
    expect(borrowing.body.error.details[0]).toMatchObject({ field: "channel_ids[0]" });
    expect((await s.call("GET", `/api/v1/monitors/${mine.id}`)).body.data.name).toBe("mine");
  });
});

describe("monitor allowance", () => {
  it("allows the free 10 and the account's limit, then answers 403 monitor_limit_reached", async () => {
    const s = await startServer({ monitorLimit: 12 });
    try {
      for (let i = 0; i < 12; i++)
        expect((await s.call("POST", "/api/v1/monitors", monitor(`m${i}`))).status).toBe(201);
      const over = await s.call("POST", "/api/v1/monitors", monitor("one too many"));
      expect(over.status).toBe(403);
      expect(over.body.error.code).toBe("monitor_limit_reached");
      expect((await s.call("GET", "/api/v1/monitors?limit=200")).body.data).toHaveLength(12);
    } finally {
      await s.close();
    }
  });
});

describe("rate limits", () => {
  it("counts requests per key, reports the budget in headers, and answers 429 with Retry-After", async () => {
    const s = await startServer({ rateLimit: 5 });
    const other = (await s.app.store.keys.create("second", null)).key;
    try {
      const first = await s.call("GET", "/api/v1/monitors");
      expect(first.headers["x-ratelimit-limit"]).toBe("5");
      expect(first.headers["x-ratelimit-remaining"]).toBe("4");
      expect(Number(first.headers["x-ratelimit-reset"])).toBeGreaterThan(0);
      for (let i = 0; i < 4; i++) expect((await s.call("GET", "/api/v1/monitors")).status).toBe(200);
      const limited = await s.call("GET", "/api/v1/monitors");
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe("rate_limited");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
      expect((await s.call("GET", "/api/v1/monitors", undefined, { key: other })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it("limits the public status document per client address", async () => {
    const s = await startServer({ publicRateLimit: 3 });
    try {
      await s.call("POST", "/api/v1/status-pages", { slug: "limited", title: "T" });
      for (let i = 0; i < 3; i++) {
        expect((await s.call("GET", "/api/status/limited.json", undefined, { key: null })).status).toBe(200);
      }
      const limited = await s.call("GET", "/api/status/limited.json", undefined, { key: null });
      expect(limited.status).toBe(429);
      expect(limited.headers["retry-after"]).toBeDefined();
    } finally {
      await s.close();
    }
  });
});
