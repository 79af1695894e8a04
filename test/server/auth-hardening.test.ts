import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/index";
import { Store } from "../../server/store";
import { newKey, startServer } from "../support/server";

describe("failed authentication throttling", () => {
  it("answers 429 rate_limited with Retry-After past the failure budget, per address, while valid keys work", async () => {
    const s = await startServer({ authFailureLimit: 5 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        statuses.push((await s.call("GET", "/api/v1/monitors", undefined, { key: newKey() })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      const limited = await s.call("GET", "/api/v1/monitors", undefined, { key: null });
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe("rate_limited");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
      expect((await s.call("GET", "/api/v1/monitors")).status).toBe(200);
      expect((await s.call("POST", "/api/v1/status-pages", { slug: "open", title: "T" })).status).toBe(201);
      expect((await s.call("GET", "/api/status/open.json", undefined, { key: null })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe("keys in query strings", () => {
  it.each(["?api_key=KEY", "?key=KEY", "?token=KEY", "?limit=5&x=KEY", "?access_token=KEY"])(
    "refuses %s with 401 even alongside a valid header",
    async (query) => {
      const s = await startServer();
      try {
        const res = await s.call("GET", `/api/v1/monitors${query.replace("KEY", s.key)}`);
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe("unauthorized");
        expect(res.body.error.message).toMatch(/never accepted in the URL/);
        expect(JSON.stringify(res.body)).not.toContain(s.key);
      } finally {
        await s.close();
      }
    },
  );

  it("never logs a query string, nor a key sent in one", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const key = newKey();
    const app = await buildApp({ devKey: key, checker: false, logger: { level: "info", stream } as never });
    try {
      const base = await app.listen({ port: 0, host: "127.0.0.1" });
      for (const q of [`api_key=${key}`, `key=${key}`, `token=${key}`, "cursor=secret-cursor-value"]) {
        await request(`${base}/api/v1/monitors?${q}`, { headers: { authorization: `Bearer ${key}` } }).then((r) =>
          r.body.text(),
        );
      }
    } finally {
      await app.close();
    }
    const log = lines.join("");
    expect(log).toContain("/api/v1/monitors?[redacted]");
    expect(log).not.toContain(key);
    expect(log).not.toContain("uk_");
    expect(log).not.toContain("secret-cursor-value");
  });
});

describe("key verification cache", () => {
  it("refuses a key on the next request after `keys revoke` in another process (another connection)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "key-cache-"));
    const db = join(dir, "u.db");
    const s = await startServer({ db });
    try {
      const created = await s.app.store.keys.create("cached", null);
      for (let i = 0; i < 3; i++) {
        expect((await s.call("GET", "/api/v1/monitors", undefined, { key: created.key })).status).toBe(200);
      }
      const other = await Store.open(db);
      try {
        expect(await other.keys.revoke(created.info.id)).toBe(true);
      } finally {
        await other.close();
      }
      expect((await s.call("GET", "/api/v1/monitors", undefined, { key: created.key })).status).toBe(401);
      expect((await s.call("GET", "/api/v1/monitors")).status).toBe(200);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers repeated requests without querying the key table", async () => {
    const s = await startServer();
    try {
      // Statements are prepared once and reused, so count verifications (a hash and a key query each).
      const keys = s.app.store.keys as unknown as { verify: (key: string) => unknown };
      const original = keys.verify.bind(keys);
      let keyQueries = 0;
      keys.verify = (key) => {
        keyQueries++;
        return original(key);
      };
      for (let i = 0; i < 5; i++) expect((await s.call("GET", "/api/v1/monitors")).status).toBe(200);
      expect(keyQueries).toBeLessThanOrEqual(1);
    } finally {
      await s.close();
    }
  });
});
