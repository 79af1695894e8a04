import { describe, expect, it } from "vitest";
import { ENGINES, useTwoStores } from "../../support/store-engines";

const WINDOW = 60_000;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe.each(ENGINES)("rate counters (%s)", (engine) => {
  const stores = useTwoStores(engine);

  it("gives concurrent counts of one key each its own place, 1 to n, in one window", async () => {
    const [store] = await stores();
    const now = Date.now();
    const counts = await Promise.all(range(1, 60).map(() => store.rateCounters.increment("rate:key:a", WINDOW, now)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(range(1, 60));
    expect(new Set(counts.map((c) => c.resetAt))).toEqual(new Set([now + WINDOW]));
    // Another key counts on its own.
    expect((await store.rateCounters.increment("rate:key:b", WINDOW, now)).count).toBe(1);
  });

  it("counts a key together across two stores on one database, and starts over when the window ended", async () => {
    const [a, b] = await stores();
    const now = Date.now();
    const counts = await Promise.all(
      range(1, 80).map((i) => (i % 2 === 0 ? a : b).rateCounters.increment("authfail:127.0.0.1", WINDOW, now)),
    );
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(range(1, 80));
    const later = now + WINDOW;
    const at = [later, later + 1];
    const next = await Promise.all([
      a.rateCounters.increment("authfail:127.0.0.1", WINDOW, at[0]),
      b.rateCounters.increment("authfail:127.0.0.1", WINDOW, at[1]),
    ]);
    expect(next.map((c) => c.count).sort()).toEqual([1, 2]);
    // The two run concurrently, so either may come first: the new window starts at the time of the
    // increment that counted 1, and the other counts in that same window.
    const first = next.findIndex((c) => c.count === 1);
    expect(next.map((c) => c.resetAt)).toEqual([at[first]! + WINDOW, at[first]! + WINDOW]);
  });
});
