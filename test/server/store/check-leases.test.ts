import { describe, expect, it, vi } from "vitest";
import { CheckLeases } from "../../../server/checker/check-leases";
import type { LeaseClaim } from "../../../server/store/check-leases";
import { ENGINES, useAccountStore } from "../../support/store-engines";

const INTERVAL = 60_000;
const LEASE = 20_000;
const T0 = Date.UTC(2026, 10, 20);

describe.each(ENGINES)("check leases taken in batches (%s)", (engine) => {
  const t = useAccountStore(engine);
  const returning = () => t.store.monitors.checkRowSql("check_leases.monitor_id");
  const claims = (holder: string, ids: string[], now: number) =>
    ids.map((monitorId) => ({ monitorId, holder, now, intervalMs: INTERVAL, leaseMs: LEASE, slackMs: 1_000 }));

  it("grant each claim as a claim of its own would: once per interval, again when the holder left it unfinished past its end", async () => {
    const [a, b, c] = [await t.create("a"), await t.create("b"), await t.create("c")];
    const many = (holder: string, ids: string[], now: number) =>
      t.store.checkLeases.claimMany(claims(holder, ids, now), returning());

    const first = await many("A", [a, b], T0);
    expect([...first.keys()].sort()).toEqual([a, b].sort());
    // Each granted claim reads its monitor in the same statement.
    expect(t.store.monitors.fromCheckRow(first.get(a) as string)?.monitor.name).toBe("a");
    expect(t.store.monitors.fromCheckRow(first.get(b) as string)?.monitor.name).toBe("b");

    // Within the interval (less the slack): held, whoever asks; c, never claimed, is granted.
    expect([...(await many("B", [a, b, c], T0 + 10_000)).keys()]).toEqual([c]);
    await t.store.checkLeases.finish([a], "A");
    // Past the lease's end: b's holder never finished it (it died), so another takes it; a was finished.
    expect([...(await many("B", [a, b], T0 + LEASE + 1)).keys()]).toEqual([b]);
    // An interval less the slack after its last claim, a finished lease is granted again.
    expect([...(await many("B", [a], T0 + INTERVAL - 1_000)).keys()]).toEqual([a]);
    expect(await t.store.checkLeases.current(a)).toMatchObject({ claimedAt: T0 + INTERVAL - 1_000, done: false });
  });

  it("grant no claim of a monitor that is gone, and the others of its batch", async () => {
    const [a, b] = [await t.create("a"), await t.create("b")];
    await t.store.monitors.delete(t.accountId, b);
    const granted = await t.store.checkLeases.claimMany(claims("A", [a, b], T0), returning());
    expect([...granted.keys()]).toEqual([a]);
  });

  it("take the leases of checks due together in one statement, each caller learning its own answer", async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => t.create(`m${i}`)));
    const leases = new CheckLeases(t.store);
    const many = vi.spyOn(t.store.checkLeases, "claimMany");
    // Another replica holds the last one's lease.
    await t.store.checkLeases.claim(claims("other", [ids[11] as string], T0)[0] as LeaseClaim);
    const taken = await Promise.all(ids.map((id) => leases.takeAndRead(id, INTERVAL, LEASE, T0 + 1_000)));
    expect(many).toHaveBeenCalledTimes(1);
    expect(taken.slice(0, 11).map((t) => t?.read?.monitor.id)).toEqual(ids.slice(0, 11));
    expect(taken[11]).toBeUndefined();
  });

  it("take each claim by itself when its batch's statement fails", async () => {
    const ids = [await t.create("a"), await t.create("b")];
    const leases = new CheckLeases(t.store);
    vi.spyOn(t.store.checkLeases, "claimMany").mockRejectedValueOnce(new Error("connection lost"));
    const one = vi.spyOn(t.store.checkLeases, "claimReturning");
    const taken = await Promise.all(ids.map((id) => leases.takeAndRead(id, INTERVAL, LEASE, T0)));
    expect(one).toHaveBeenCalledTimes(2);
    expect(taken.map((t) => t?.read?.monitor.id)).toEqual(ids);
  });
});
