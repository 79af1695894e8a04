import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { ExternalCommits } from "../../../server/store/sql/database";
import type { Executor } from "../../../server/store/sql/executor";
import { openSqlite, SqliteExecutor } from "../../../server/store/sql/sqlite";

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

/** The look the callers of one event-loop turn share (`ExternalCommits.check`). */
describe("the look for other connections' commits, once per event-loop turn", () => {
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.close();
  });

  it("is shared by the callers of one turn; a caller after it started waits for the next, which sees what was committed before it asked", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "uptime-commits-")), "u.db");
    const mine = openSqlite(path);
    const other = new DatabaseSync(path);
    open.push(mine, other);
    // The real executor, its looks counted, and held back while `gate.slow` is pending (a look
    // on PostgreSQL, or a PRAGMA waiting for this connection's transaction).
    let looks = 0;
    const gate: { slow?: Promise<void> } = {};
    const counted = Object.create(mine) as Executor;
    counted.externalVersion = async (tables?: readonly string[]) => {
      looks++;
      const version = await (mine as Executor).externalVersion(tables);
      await gate.slow;
      return version;
    };
    const commits = new ExternalCommits(counted);
    let emptied = 0;
    commits.subscribe(["monitors"], () => emptied++);
    await commits.check();
    [looks, emptied] = [0, 0];

    // 50 requests of one turn: one look (of any commit; none, so no table looked at).
    await Promise.all(Array.from({ length: 50 }, () => commits.check()));
    expect([looks, emptied]).toEqual([1, 0]);

    // A look under way, and another connection commits before a request asks: the request does
    // not take the look that started before it asked (which saw no commit), but the next.
    let release = () => {};
    gate.slow = new Promise<void>((done) => (release = done));
    looks = 0;
    const first = commits.check();
    const { second } = await new Promise<{ second: Promise<void> }>((asked) =>
      setImmediate(() => {
        other.exec("PRAGMA user_version = 6");
        asked({ second: commits.check() });
      }),
    );
    expect(second).not.toBe(first);
    await new Promise((done) => setTimeout(done, 20));
    expect(looks).toBe(2);
    release();
    await first;
    expect(emptied).toBe(0);
    await second;
    expect(emptied).toBe(1);

    // And a commit made before the next turn's callers asked empties the cache for them.
    other.exec("PRAGMA user_version = 7");
    await Promise.all([commits.check(), commits.check()]);
    expect(emptied).toBe(2);
  });
});
