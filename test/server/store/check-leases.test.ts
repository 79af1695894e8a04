import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toMonitorSpec } from "../../../api";
import { CheckLeases } from "../../../server/checker/check-leases";
import type { Store } from "../../../server/index";
import type { LeaseClaim } from "../../../server/store/check-leases";
import { ENGINES, openTestStore } from "../../support/store-engines";

const INTERVAL = 60_000;
const LEASE = 20_000;
const T0 = Date.UTC(2026, 10, 20);

describe.each(ENGINES)("check leases taken in batches (%s)", (engine) => {
  let store: Store;
  let accountId: string;
  const create = async (name: string) =>
    (
      await store.monitors.create(
        accountId,
        toMonitorSpec({ name, type: "http", url: "https://x.example", interval_sec: 60 }),
      )
    ).id;
  const returning = () => store.monitors.checkRowSql("check_leases.monitor_id");
  const claims = (holder: string, ids: string[], now: number) =>
    ids.map((monitorId) => ({ monitorId, holder, now, intervalMs: INTERVAL, leaseMs: LEASE, slackMs: 1_000 }));
  beforeEach(async () => {
    store = await openTestStore(engine);
    const { key } = await store.keys.create("acme", null);
    accountId = (await store.keys.authenticate(key))?.accountId as string;
  });
  afterEach(async () => await store.close());

  it("grant each claim as a claim of its own would: once per interval, again when the holder left it unfinished past its end", async () => {
    const [a, b, c] = [await create("a"), await create("b"), await create("c")];
    const many = (holder: string, ids: string[], now: number) =>
      store.checkLeases.claimMany(claims(holder, ids, now), returning());

    const first = await many("A", [a, b], T0);
    expect([...first.keys()].sort()).toEqual([a, b].sort());
    // Each granted claim reads its monitor in the same statement.
    expect(store.monitors.fromCheckRow(first.get(a) as string)?.monitor.name).toBe("a");
    expect(store.monitors.fromCheckRow(first.get(b) as string)?.monitor.name).toBe("b");

    // Within the interval (less the slack): held, whoever asks; c, never claimed, is granted.
    expect([...(await many("B", [a, b, c], T0 + 10_000)).keys()]).toEqual([c]);
    await store.checkLeases.finish([a], "A");
    // Past the lease's end: b's holder never finished it (it died), so another takes it; a was finished.
    expect([...(await many("B", [a, b], T0 + LEASE + 1)).keys()]).toEqual([b]);
    // An interval less the slack after its last claim, a finished lease is granted again.
    expect([...(await many("B", [a], T0 + INTERVAL - 1_000)).keys()]).toEqual([a]);
    expect(await store.checkLeases.current(a)).toMatchObject({ claimedAt: T0 + INTERVAL - 1_000, done: false });
  });

  it("grant no claim of a monitor that is gone, and the others of its batch", async () => {
    const [a, b] = [await create("a"), await create("b")];
    await store.monitors.delete(accountId, b);
    const granted = await store.checkLeases.claimMany(claims("A", [a, b], T0), returning());
    expect([...granted.keys()]).toEqual([a]);
  });

  it("take the leases of checks due together in one statement, each caller learning its own answer", async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => create(`m${i}`)));
    const leases = new CheckLeases(store);
    const many = vi.spyOn(store.checkLeases, "claimMany");
    // Another replica holds the last one's lease.
    await store.checkLeases.claim(claims("other", [ids[11] as string], T0)[0] as LeaseClaim);
    const taken = await Promise.all(ids.map((id) => leases.takeAndRead(id, INTERVAL, LEASE, T0 + 1_000)));
    expect(many).toHaveBeenCalledTimes(1);
    expect(taken.slice(0, 11).map((t) => t?.read?.monitor.id)).toEqual(ids.slice(0, 11));
    expect(taken[11]).toBeUndefined();
  });

  it("take each claim by itself when its batch's statement fails", async () => {
    const ids = [await create("a"), await create("b")];
    const leases = new CheckLeases(store);
    vi.spyOn(store.checkLeases, "claimMany").mockRejectedValueOnce(new Error("connection lost"));
    const one = vi.spyOn(store.checkLeases, "claimReturning");
    const taken = await Promise.all(ids.map((id) => leases.takeAndRead(id, INTERVAL, LEASE, T0)));
    expect(one).toHaveBeenCalledTimes(2);
    expect(taken.map((t) => t?.read?.monitor.id)).toEqual(ids);
  });
});
