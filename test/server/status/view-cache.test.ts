import { describe, expect, it } from "vitest";
import { ViewCache } from "../../../server/services/view-cache";
import { PageChanges } from "../../../server/store/page-changes";
import type { ExternalCommits } from "../../../server/store/sql/database";

/** No other process: nothing to look at but this process's writes, told by `wrote`. */
const alone = { subscribe: () => undefined, check: async () => undefined } as unknown as ExternalCommits;

/** A computation that ends when `finish` is called with its value. */
function gate<T>() {
  let finish!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (finish = resolve));
  return { promise, finish };
}

/** A cache over this process's writes, and a time of expiry no test reaches (an hour from now). */
function keptCache() {
  const changes = new PageChanges(alone);
  return { changes, cache: new ViewCache<string>(changes), forever: Date.now() + 3_600_000 };
}

describe("a status page's kept answers (ViewCache)", () => {
  it("never answers a value after a write to what it shows, even while the new one is computed", async () => {
    const { changes, cache, forever } = keptCache();
    expect(await cache.get("page", async () => ({ value: "public", expires: forever }))).toBe("public");
    // The page is made private; a request starts the new value's computation and leaves it running.
    changes.wrote("status_pages");
    const slow = gate<string>();
    const first = cache.get("page", async () => ({ value: await slow.promise, expires: forever }));
    await new Promise((r) => setTimeout(r, 10));
    // A second request meanwhile waits for the new value: the kept one came before the write.
    let second: string | undefined;
    const answered = cache.get("page", async () => ({ value: "never computed twice", expires: forever }));
    void answered.then((v) => (second = v));
    await new Promise((r) => setTimeout(r, 10));
    expect(second).toBeUndefined();
    slow.finish("private");
    expect(await first).toBe("private");
    expect(await answered).toBe("private");
  });

  it("answers the kept value while its successor is computed when only its time ran out", async () => {
    let now = 1_000;
    const changes = new PageChanges(alone);
    const cache = new ViewCache<string>(changes, 10, () => now);
    expect(await cache.get("page", async () => ({ value: "before midnight", expires: 2_000 }))).toBe("before midnight");
    now = 2_500;
    const slow = gate<string>();
    const first = cache.get("page", async () => ({ value: await slow.promise, expires: 10_000 }));
    await new Promise((r) => setTimeout(r, 10));
    expect(await cache.get("page", async () => ({ value: "never computed twice", expires: 10_000 }))).toBe(
      "before midnight",
    );
    slow.finish("after midnight");
    expect(await first).toBe("after midnight");
  });

  it("answers the kept value while its successor is computed when only its monitors' checks came after it", async () => {
    const { changes, cache, forever } = keptCache();
    await cache.get("page", async () => ({ value: "up", expires: forever, monitors: ["mon_a"] }));
    changes.wrote("heartbeats", "mon_a");
    const slow = gate<string>();
    const first = cache.get("page", async () => ({ value: await slow.promise, expires: forever, monitors: ["mon_a"] }));
    await new Promise((r) => setTimeout(r, 10));
    expect(await cache.get("page", async () => ({ value: "never computed twice", expires: forever }))).toBe("up");
    slow.finish("down");
    expect(await first).toBe("down");
    expect(await cache.get("page", async () => ({ value: "not again", expires: forever }))).toBe("down");
  });

  it("a write to a monitor the value does not show keeps it", async () => {
    const { changes, cache, forever } = keptCache();
    await cache.get("page", async () => ({ value: "one", expires: forever, monitors: ["mon_a"] }));
    changes.wrote("heartbeats", "mon_b");
    expect(await cache.get("page", async () => ({ value: "two", expires: forever }))).toBe("one");
    changes.wrote("heartbeats", "mon_a");
    expect(await cache.get("page", async () => ({ value: "three", expires: forever }))).toBe("three");
  });
});
