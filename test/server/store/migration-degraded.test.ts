import { mkdtempSync, rmSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Store } from "../../../server/index";
import { MIGRATIONS } from "../../../server/store/sql/migrations";

describe("store migration to degraded checks and failure details", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("opens a version-3 database: its monitors read without assertions, its heartbeats without details", async () => {
    const dir = mkdtempSync(join(tmpdir(), "uptime-migrate-"));
    dirs.push(dir);
    const path = join(dir, "uptime.db");
    // A database as the server left it before version 4, with a monitor and one heartbeat.
    const old = new DatabaseSync(path);
    old.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
    MIGRATIONS.slice(0, 3).forEach((sql, i) => {
      old.exec(sql);
      old.prepare("INSERT INTO schema_migrations VALUES (?, ?)").run(i + 1, new Date().toISOString());
    });
    const spec = {
      name: "old",
      type: "http",
      url: "https://x.example",
      interval_sec: 60,
      timeout_sec: 10,
      method: "GET",
      headers: {},
      body: null,
      expected_status_codes: ["2xx"],
      keyword: null,
      keyword_case_sensitive: false,
      follow_redirects: true,
      tags: [],
    };
    old.exec("INSERT INTO accounts VALUES ('acc_1', 'acme', NULL, '2026-01-01T00:00:00.000Z')");
    old
      .prepare(
        "INSERT INTO monitors (id, account_id, spec, status, health, created_at, updated_at) VALUES ('mon_1', 'acc_1', ?, 'active', 'up', 'x', 'x')",
      )
      .run(JSON.stringify(spec));
    old.exec(
      "INSERT INTO heartbeats (id, monitor_id, checked_at, up, response_time_ms, status_code, error) VALUES ('hb_1', 'mon_1', 1000, 1, 80, 200, NULL)",
    );
    old.close();

    const store = await Store.open(path);
    try {
      const monitor = await store.monitors.find("mon_1");
      expect(monitor).toMatchObject({
        health: "up",
        assertions: [],
        degraded_response_ms: null,
        max_response_ms: null,
      });
      expect(await store.heartbeats.recent("mon_1", 1, 2000)).toEqual([
        expect.objectContaining({ id: "hb_1", status: "up", error_class: null, assertions: [], timings: null }),
      ]);
      // A degraded check then shows as degraded health, and counts as up.
      await store.recordCheck(
        "mon_1",
        { up: true, degraded: true, response_time_ms: 900, status_code: 200, error: null },
        3000,
      );
      expect((await store.monitors.find("mon_1"))?.health).toBe("degraded");
      expect(await store.heartbeats.uptime("mon_1", 0)).toBe(100);
      await store.recordCheck("mon_1", { up: true, response_time_ms: 90, status_code: 200, error: null }, 4000);
      expect((await store.monitors.find("mon_1"))?.health).toBe("up");
    } finally {
      await store.close();
    }
  });
});
