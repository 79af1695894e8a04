import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { openSqlite, SqliteExecutor } from "../../../server/store/sqlite";

/** The look for other connections' commits on SQLite (the WAL-index header, then `data_version`). */
describe("another connection's commits on SQLite", () => {
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });
  const file = () => join(mkdtempSync(join(tmpdir(), "uptime-commits-")), "u.db");

  it("changes the external version with each commit of another connection, never with its own", async () => {
    const path = file();
    const mine = openSqlite(path);
    const other = new DatabaseSync(path);
    open.push(mine, other);
    let version = await mine.externalVersion();
    for (let i = 0; i < 20; i++) {
      await mine.exec(`PRAGMA user_version = ${i}`);
      expect(await mine.externalVersion()).toBe(version);
      other.exec(`PRAGMA user_version = ${i + 100}`);
      const next = await mine.externalVersion();
      expect(next).not.toBe(version);
      version = next;
    }
  });

  it("runs the PRAGMA at every look when the -shm file it was given is not the one SQLite writes", async () => {
    const path = file();
    await openSqlite(path).close();
    const stale = `${path}-elsewhere-shm`;
    writeFileSync(stale, Buffer.alloc(32_768));
    const mine = new SqliteExecutor(new DatabaseSync(path), stale);
    const other = new DatabaseSync(path);
    open.push(mine, other);
    mine.proveWalIndex();
    const before = await mine.externalVersion();
    other.exec("PRAGMA user_version = 7");
    expect(await mine.externalVersion()).not.toBe(before);
  });
});
