import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/pulumi-engine";
import { MIGRATIONS } from "../../../server/store/sql/migrations";
import { startServer } from "../../support/server";

const FIXTURE = join(REPO_ROOT, "test/fixtures/upgrade/0.1.0");
const expected = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")) as {
  commit: string;
  devKey: string;
  heartbeats: number;
  served: Record<"monitors" | "channels" | "status-pages", { id: string }[]>;
};
const dir = mkdtempSync(join(tmpdir(), "uptime-upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a database written by release 0.1.0", () => {
  it("opens, migrates to the current schema, seals its secrets, and serves every object unchanged", async () => {
    const db = join(dir, "uptime.db");
    copyFileSync(join(FIXTURE, "uptime.db"), db);
    const before = new DatabaseSync(db, { readOnly: true });
    const { v } = before.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number };
    before.close();
    expect(v).toBeLessThan(MIGRATIONS.length);

    const s = await startServer({ db, devKey: expected.devKey });
    try {
      expect((await request(`${s.url}/readyz`)).statusCode).toBe(200);
      for (const kind of ["monitors", "channels", "status-pages"] as const) {
        const list = await s.call("GET", `/api/v1/${kind}?limit=100`);
        expect(list.status, JSON.stringify(list.body)).toBe(200);
        const listed = list.body.data as { id: string }[];
        expect(listed.map((o) => o.id).sort()).toEqual(expected.served[kind].map((o) => o.id).sort());
        for (const old of expected.served[kind]) {
          const now = await s.call("GET", `/api/v1/${kind}/${old.id}`);
          expect(now.status).toBe(200);
          // Every field the release served, with the same value; fields added since come on top.
          // Except by design: a channel's config_fingerprint is keyed by the server's key file
          // since 0.1.0 (the README's Channel section says how the provider takes the change).
          const { config_fingerprint: fingerprint, ...same } = old as { config_fingerprint?: string };
          expect(now.body.data).toMatchObject(same);
          if (fingerprint) expect(now.body.data.config_fingerprint).toMatch(/^[0-9a-f]{64}$/);
        }
      }
      const store = s.app.store;
      expect(
        ((await store.db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get()) as { v: number }).v,
      ).toBe(MIGRATIONS.length);
      expect(((await store.db.prepare("SELECT COUNT(*) AS n FROM heartbeats").get()) as { n: number }).n).toBe(
        expected.heartbeats,
      );
      // The release kept the webhook's secret in plain text; the upgrade sealed it under the new key file.
      const configs = ((await store.db.prepare("SELECT config FROM channels").all()) as { config: string }[])
        .map((r) => r.config)
        .join("\n");
      expect(configs).not.toContain("webhook-signing-secret-0123");
      expect(
        ((await store.db.prepare("PRAGMA integrity_check").get()) as { integrity_check: string }).integrity_check,
      ).toBe("ok");
    } finally {
      await s.close();
    }
  });
});
