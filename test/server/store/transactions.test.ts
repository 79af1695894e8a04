import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "../../../server/index";
import { ENGINES, openTestStore } from "../../support/store-engines";

describe.each(ENGINES)("transactions of the store's engine (%s)", (engine) => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  /** A store with a scratch table `t (v)`, and what it holds, in order. */
  const scratch = async () => {
    store = await openTestStore(engine);
    const db = store.db;
    await db.prepare("CREATE TABLE t (v TEXT NOT NULL)").run();
    const insert = (v: string) => db.prepare("INSERT INTO t (v) VALUES (?)").run(v);
    const rows = async () =>
      ((await db.prepare("SELECT v FROM t ORDER BY v").all()) as { v: string }[]).map((r) => r.v);
    return { db, insert, rows };
  };

  it("a failed nested transaction undoes only its own writes; the work it left for the commit is dropped", async () => {
    const { db, insert, rows } = await scratch();
    const ran: string[] = [];
    await db.transaction(async () => {
      await insert("a");
      db.afterCommit(() => ran.push("outer"));
      await expect(
        db.transaction(async () => {
          await insert("b");
          db.afterCommit(() => ran.push("failed inner"));
          throw new Error("inner fails");
        }),
      ).rejects.toThrow("inner fails");
      await db.transaction(async () => {
        await insert("c");
        await db.transaction(async () => {
          await insert("d");
          db.afterCommit(() => ran.push("innermost"));
        });
      });
      expect(db.inTransaction).toBe(true);
      expect(ran).toEqual([]);
    });
    expect(db.inTransaction).toBe(false);
    expect(await rows()).toEqual(["a", "c", "d"]);
    expect(ran).toEqual(["outer", "innermost"]);
  });

  it("a failed outer transaction keeps none of its writes, nested or not, and runs none of its after-commit work", async () => {
    const { db, insert, rows } = await scratch();
    const ran: string[] = [];
    await expect(
      db.transaction(async () => {
        await insert("a");
        await db.transaction(async () => {
          await insert("b");
          db.afterCommit(() => ran.push("inner"));
        });
        throw new Error("outer fails");
      }),
    ).rejects.toThrow("outer fails");
    expect(await rows()).toEqual([]);
    expect(ran).toEqual([]);
    // Outside a transaction, after-commit work runs at once.
    db.afterCommit(() => ran.push("now"));
    expect(ran).toEqual(["now"]);
  });

  it("with flat, nested transactions join the outer one without savepoints: a caught failure undoes nothing", async () => {
    const { db, insert, rows } = await scratch();
    await db.transaction(
      async () => {
        await insert("a");
        await db
          .transaction(async () => {
            await insert("b");
            throw new Error("inner fails");
          })
          .catch(() => undefined);
      },
      { flat: true },
    );
    expect(await rows()).toEqual(["a", "b"]);
  });

  it("two transactions at once each keep their own writes and neither sees the other's scope", async () => {
    const { db, insert, rows } = await scratch();
    const one = db.transaction(async () => {
      await insert("one-a");
      await new Promise((resolve) => setTimeout(resolve, 20));
      await insert("one-b");
    });
    const two = expect(
      db.transaction(async () => {
        await insert("two-a");
        throw new Error("two fails");
      }),
    ).rejects.toThrow("two fails");
    await Promise.all([one, two]);
    expect(await rows()).toEqual(["one-a", "one-b"]);
  });
});
