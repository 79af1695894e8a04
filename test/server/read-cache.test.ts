import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Store } from "../../server/store";
import { startServer, type TestServer } from "../support/server";

/** GET /monitors/:id is answered from memory; every way a monitor can change must show at once. */
describe("monitor read cache", () => {
  let dir: string;
  let db: string;
  let s: TestServer;
  let id: string;
  let channelId: string;
  const get = async () => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "read-cache-"));
    db = join(dir, "u.db");
    s = await startServer({ db });
    channelId = (
      await s.call("POST", "/api/v1/channels", { name: "ops", type: "email", config: { address: "ops@example.com" } })
    ).body.data.id;
    const created = await s.call("POST", "/api/v1/monitors", {
      name: "api",
      type: "http",
      url: "https://example.com",
      interval_sec: 60,
      channel_ids: [channelId],
    });
    id = created.body.data.id;
  });

  afterEach(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers repeated GETs without reading the row again", async () => {
    const monitors = s.app.store.monitors as unknown as { hydrate: (rows: unknown[]) => unknown[] };
    const original = monitors.hydrate.bind(monitors);
    let reads = 0;
    monitors.hydrate = (rows) => {
      reads++;
      return original(rows);
    };
    for (let i = 0; i < 5; i++) expect((await get()).name).toBe("api");
    expect(reads).toBeLessThanOrEqual(1);
  });

  it("shows a PATCH, a pause, a check, a deleted channel and another process's write on the next GET", async () => {
    expect(await get()).toMatchObject({ name: "api", status: "active", health: "pending", channel_ids: [channelId] });

    await s.call("PATCH", `/api/v1/monitors/${id}`, { name: "api v2" });
    expect((await get()).name).toBe("api v2");

    await s.call("POST", `/api/v1/monitors/${id}/pause`);
    expect((await get()).status).toBe("paused");
    await s.call("POST", `/api/v1/monitors/${id}/resume`);
    expect((await get()).status).toBe("active");

    await s.app.store.recordCheck(id, { up: true, response_time_ms: 12, status_code: 200, error: null });
    const checked = await get();
    expect(checked.health).toBe("up");
    expect(checked.last_checked_at).not.toBeNull();

    await s.call("DELETE", `/api/v1/channels/${channelId}`);
    expect((await get()).channel_ids).toEqual([]);

    const other = await Store.open(db);
    try {
      const accountId = (await s.app.store.keys.authenticate(s.key))?.accountId as string;
      await other.monitors.setStatus(accountId, id, "paused");
    } finally {
      await other.close();
    }
    expect((await get()).status).toBe("paused");

    await s.call("DELETE", `/api/v1/monitors/${id}`);
    expect((await s.call("GET", `/api/v1/monitors/${id}`)).status).toBe(404);
  });

  it("sees each of many commits by another connection on the very next GET, between this server's own writes", async () => {
    const other = await Store.open(db);
    try {
      const accountId = (await s.app.store.keys.authenticate(s.key))?.accountId as string;
      for (let i = 0; i < 25; i++) {
        const status = i % 2 === 0 ? "paused" : "active";
        await other.monitors.setStatus(accountId, id, status);
        expect((await get()).status).toBe(status);
        expect((await get()).status).toBe(status);
        // A commit of this server's own between two of the other's.
        if (i % 5 === 0) await s.call("PATCH", `/api/v1/monitors/${id}`, { name: `api ${i}` });
      }
      const { key, info } = await other.keys.create("acme-2", null);
      expect((await s.call("GET", "/api/v1/monitors", undefined, { key })).status).toBe(200);
      await other.keys.revoke(info.id);
      expect((await s.call("GET", "/api/v1/monitors", undefined, { key })).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it("sees another connection's commit when the server opened the database through a symlink", async () => {
    const link = join(dir, "link.db");
    symlinkSync(db, link);
    // A stale file where the link's own -shm would be: SQLite keeps its -shm by the target.
    writeFileSync(`${link}-shm`, Buffer.alloc(32_768));
    const linked = await startServer({ db: link, secretKeyFile: `${db}.key`, devKey: s.key });
    const other = await Store.open(db);
    try {
      const read = async () => (await linked.call("GET", `/api/v1/monitors/${id}`)).body.data.status as string;
      expect(await read()).toBe("active");
      const accountId = (await other.keys.authenticate(s.key))?.accountId as string;
      await other.monitors.setStatus(accountId, id, "paused");
      expect(await read()).toBe("paused");
    } finally {
      await other.close();
      await linked.close();
    }
  });

  it("never answers another account's monitor from the cache", async () => {
    await get();
    const stranger = (await s.app.store.keys.create("stranger", null)).key;
    expect((await s.call("GET", `/api/v1/monitors/${id}`, undefined, { key: stranger })).status).toBe(404);
  });
});
