import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/pulumi-engine";
import { newKey, startServer, type TestServer } from "../../support/server";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "uptime-backup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `uptime-server <args>` as users run it. */
const cli = (...args: string[]) => run(process.execPath, ["dist/server/cli.js", ...args], { cwd: REPO_ROOT });

const count = async (s: TestServer, table: string) =>
  ((await s.app.store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()) as { n: number }).n;

const monitorIds = async (s: TestServer) =>
  ((await s.app.store.db.prepare("SELECT id FROM monitors ORDER BY id").all()) as { id: string }[]).map((r) => r.id);

/** Monitors with a sealed header and a channel each, until `stop()`: the write load. */
function writeLoad(s: TestServer) {
  let writing = true;
  const one = async (i: number) => {
    const channel = (
      await s.call("POST", "/api/v1/channels", {
        name: `c${i}`,
        type: "webhook",
        config: { url: "https://example.com/hook", secret: `secret-${i}-0123456789` },
      })
    ).body.data;
    await s.call("POST", "/api/v1/monitors", {
      name: `m${i}`,
      type: "http",
      url: "https://example.com/",
      interval_sec: 60,
      headers: { authorization: `Bearer t${i}` },
      channel_ids: [channel.id],
    });
  };
  const loops = [0, 1, 2].map(async (w) => {
    for (let i = w; writing; i += 3) await one(i);
  });
  return async () => {
    writing = false;
    await Promise.all(loops);
  };
}

describe("uptime-server backup and restore", () => {
  it("backs up online under write load, and a restore serves the same objects and passes the integrity check", async () => {
    const db = join(dir, "live.db");
    const key = newKey();
    const live = await startServer({ db, devKey: key, rateLimit: 1_000_000 });
    try {
      const stop = writeLoad(live);
      await new Promise((r) => setTimeout(r, 500));
      const before = await count(live, "monitors");
      const backupFile = join(dir, "backup.db");
      const { stderr } = await cli("backup", "--db", db, "--to", backupFile);
      const after = await count(live, "monitors");
      await stop();
      expect(stderr).toMatch(/Backed up \d+ monitors.*key file .*live\.db\.key.*not in the backup/s);
      expect(statSync(backupFile).mode & 0o777).toBe(0o600);
      await expect(cli("backup", "--db", db, "--to", backupFile)).rejects.toThrow(/exists/);

      const restored = join(dir, "restored.db");
      copyFileSync(`${db}.key`, `${restored}.key`);
      const { stderr: restoreOut } = await cli("restore", "--from", backupFile, "--db", restored);
      const n = Number(/Restored (\d+) monitors, (\d+) channels/.exec(restoreOut)?.[1]);
      expect(n).toBeGreaterThanOrEqual(before);
      expect(n).toBeLessThanOrEqual(after);

      const copy = await startServer({ db: restored, devKey: key, rateLimit: 1_000_000 });
      try {
        expect(await count(copy, "monitors")).toBe(n);
        expect(
          ((await copy.app.store.db.prepare("PRAGMA integrity_check").get()) as { integrity_check: string })
            .integrity_check,
        ).toBe("ok");
        // Every restored object reads exactly as the live server serves it, sealed secrets included.
        const monitors = (await copy.call("GET", "/api/v1/monitors?limit=200")).body.data as {
          id: string;
          channel_ids: string[];
        }[];
        for (const m of monitors) {
          expect((await copy.call("GET", `/api/v1/monitors/${m.id}`)).body).toEqual(
            (await live.call("GET", `/api/v1/monitors/${m.id}`)).body,
          );
          for (const c of m.channel_ids) {
            expect((await copy.call("GET", `/api/v1/channels/${c}`)).body).toEqual(
              (await live.call("GET", `/api/v1/channels/${c}`)).body,
            );
          }
        }
      } finally {
        await copy.close();
      }
    } finally {
      await live.close();
    }
  });

  it("refuses a restore without the key file that sealed the backup, and leaves the database as it was", async () => {
    const db = join(dir, "sealed.db");
    const s = await startServer({ db });
    await s.call("POST", "/api/v1/channels", {
      name: "c",
      type: "webhook",
      config: { url: "https://example.com/hook", secret: "s3cret-0123456789abc" },
    });
    await s.close();
    const backupFile = join(dir, "sealed-backup.db");
    await cli("backup", "--db", db, "--to", backupFile);

    const target = join(dir, "elsewhere.db");
    await expect(cli("restore", "--from", backupFile, "--db", target)).rejects.toThrow(
      /no key file at .*elsewhere\.db\.key.*cannot be read, by design/s,
    );
    expect(existsSync(target)).toBe(false);

    // Another server's key file: the sealed secrets do not open, so nothing is replaced.
    await cli("keys", "rotate-secret", "--db", join(dir, "other.db"));
    await expect(
      cli("restore", "--from", backupFile, "--db", target, "--secret-key-file", join(dir, "other.db.key")),
    ).rejects.toThrow(/cannot be restored with the key file/);
    expect(existsSync(target)).toBe(false);
  });

  it("refuses to restore over a database a running server holds, under write load, and loses no answered write", async () => {
    const db = join(dir, "held.db");
    const key = newKey();
    const live = await startServer({ db, devKey: key, rateLimit: 1_000_000 });
    let answered: string[] = [];
    const backupFile = join(dir, "held-backup.db");
    try {
      const stop = writeLoad(live);
      await new Promise((r) => setTimeout(r, 300));
      await cli("backup", "--db", db, "--to", backupFile);
      const refused = await cli("restore", "--from", backupFile, "--db", db).then(
        () => "",
        (e: Error & { stderr: string }) => e.stderr,
      );
      expect(refused).toMatch(
        /held\.db is open in another process \(a running uptime-server\?\).*Stop every server of this database first.*uptime-server backup/s,
      );
      // The server goes on answering and writing to the same file after the refusal.
      await new Promise((r) => setTimeout(r, 300));
      await stop();
      const created = await live.call("POST", "/api/v1/monitors", {
        name: "after-refusal",
        type: "http",
        url: "https://example.com/",
        interval_sec: 60,
      });
      expect(created.status).toBe(201);
      answered = await monitorIds(live);
      expect(answered).toContain(created.body.data.id);
    } finally {
      await live.close();
    }
    // Every write the server answered is in the file after a restart.
    const again = await startServer({ db, devKey: key, rateLimit: 1_000_000 });
    try {
      expect(await monitorIds(again)).toEqual(answered);
      expect((await again.call("GET", `/api/v1/monitors/${answered.at(-1)}`)).status).toBe(200);
    } finally {
      await again.close();
    }
    // Stopped, the same restore goes through.
    const { stderr } = await cli("restore", "--from", backupFile, "--db", db);
    expect(stderr).toMatch(/Restored \d+ monitors/);
  });

  it("leaves one file behind a backup, and names a missing folder", async () => {
    const db = join(dir, "tidy.db");
    const s = await startServer({ db });
    try {
      await s.call("POST", "/api/v1/monitors", {
        name: "m",
        type: "http",
        url: "https://example.com/",
        interval_sec: 60,
      });
      const folder = mkdtempSync(join(dir, "tidy-"));
      await cli("backup", "--db", db, "--to", join(folder, "b.db"));
      expect(readdirSync(folder)).toEqual(["b.db"]);
      const missing = join(dir, "no-such-folder", "b.db");
      await expect(cli("backup", "--db", db, "--to", missing)).rejects.toThrow(
        /--to .*no-such-folder\/b\.db: the folder .*no-such-folder does not exist/,
      );
      await expect(cli("restore", "--from", join(folder, "b.db"), "--db", missing)).rejects.toThrow(
        /--db .*: the folder .*no-such-folder does not exist/,
      );
    } finally {
      await s.close();
    }
  });
});
