import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../support/server";

const dir = mkdtempSync(join(tmpdir(), "uptime-health-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = async (url: string) => {
  const res = await request(url);
  return { status: res.statusCode, headers: res.headers, body: await res.body.json() };
};

describe("/healthz and /readyz", () => {
  it("answer without a key, uncached, never rate limited, and stay out of the OpenAPI document", async () => {
    const s = await startServer({ publicRateLimit: 2 });
    try {
      for (let i = 0; i < 5; i++) {
        expect(await get(`${s.url}/healthz`)).toMatchObject({
          status: 200,
          body: { status: "ok" },
          headers: { "cache-control": "no-store" },
        });
        expect(await get(`${s.url}/readyz`)).toMatchObject({ status: 200, body: { status: "ready" } });
      }
      const paths = Object.keys((await s.call("GET", "/api/v1/openapi.json")).body.paths);
      expect(paths.filter((p) => /healthz|readyz|metrics/.test(p))).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("/readyz is 503 with the reason when the database cannot take writes; /healthz stays 200", async () => {
    const db = join(dir, "ro.db");
    const s = await startServer({ db });
    try {
      // Another connection holds the write lock (a stuck writer, a read-only disk would do the same).
      const { DatabaseSync } = await import("node:sqlite");
      const other = new DatabaseSync(db);
      other.exec("PRAGMA busy_timeout = 0; BEGIN IMMEDIATE");
      await s.app.store.db.exec("PRAGMA busy_timeout = 0");
      const ready = await get(`${s.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        status: "not_ready",
        problems: [expect.stringMatching(/^database not writable: .*locked/)],
      });
      expect((await get(`${s.url}/healthz`)).status).toBe(200);
      other.exec("ROLLBACK");
      other.close();
      expect((await get(`${s.url}/readyz`)).status).toBe(200);
    } finally {
      chmodSync(db, 0o600);
      await s.close();
    }
  });

  it("/readyz is 503 once a shutdown began", async () => {
    const s = await startServer();
    s.app.draining = true;
    try {
      expect(await get(`${s.url}/readyz`)).toMatchObject({ status: 503, body: { problems: ["shutting down"] } });
    } finally {
      await s.close();
    }
  });
});
