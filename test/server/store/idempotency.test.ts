import { describe, expect, it } from "vitest";
import { Store } from "../../../server/index";
import { ENGINES, useTwoStores } from "../../support/store-engines";

const FP = "fingerprint";
const answer = (body: string) => ({ fingerprint: FP, statusCode: 201, body });
/** Past the longest a live process holds a reservation (RESERVATION_MS in server/store/idempotency.ts). */
const later = () => Date.now() + 121_000;

describe.each(ENGINES)("idempotency reservations (%s)", (engine) => {
  const stores = useTwoStores(engine);
  const account = async (store: Store) =>
    (await store.keys.authenticate((await store.keys.create("acme", "dev")).key))?.accountId as string;

  it("holds a key for its process: a second reservation by that process waits, whatever its age short of the limit", async () => {
    const [a] = await stores();
    const acct = await account(a);
    const holder = await a.idempotency.reserve(acct, "k", FP);
    expect(holder).toEqual(expect.any(String));
    expect(await a.idempotency.reserve(acct, "k", FP)).toBeUndefined();
    expect(await a.idempotency.reserve(acct, "k", FP, false, Date.now() + 60_000)).toBeUndefined();
    // A process that lives on without ending its request loses the key after the limit.
    expect(await a.idempotency.reserve(acct, "k", FP, false, later())).toEqual(expect.any(String));
  });

  it("frees a key at once when the process that reserved it is gone (closed, as by a crash)", async () => {
    const [a, b] = await stores();
    const acct = await account(a);
    expect(await a.idempotency.reserve(acct, "k", FP)).toBeDefined();
    // PostgreSQL: another live replica waits for it. (SQLite is served by one process: any other
    // connection counts as a process that ended, a crash before the restart.)
    if (engine === "postgres") expect(await b.idempotency.reserve(acct, "k", FP)).toBeUndefined();
    await a.close();
    expect(await b.idempotency.reserve(acct, "k", FP)).toEqual(expect.any(String));
  });

  it("keeps the answer of the reservation's holder only: a request whose key was taken over keeps nothing, and undoes its changes", async () => {
    const [a, b] = await stores();
    const acct = await account(a);
    const first = (await a.idempotency.reserve(acct, "k", FP)) as string;
    const second = (await b.idempotency.reserve(acct, "k", FP, false, later())) as string;
    expect(second).toEqual(expect.any(String));

    // The first request's create and its answer, in one transaction: refused, so nothing commits.
    const failed = a.db.transaction(async () => {
      await a.channels.create(acct, "first", "email", { address: "a@example.com" } as never);
      if (!(await a.idempotency.save(acct, "k", first, answer("first")))) throw new Error("taken over");
    });
    await expect(failed).rejects.toThrow("taken over");
    // Its abandon leaves the other's reservation alone.
    await a.idempotency.abandon(acct, "k", first);
    expect(await b.idempotency.save(acct, "k", second, answer("second"))).toBe(true);
    expect(await a.idempotency.find(acct, "k")).toEqual(answer("second"));
    expect((await a.channels.list(acct, 50)).items.map((c) => c.name)).toEqual([]);
    // An answered key is not reserved again, by any process.
    expect(await a.idempotency.reserve(acct, "k", FP, false, later())).toBeUndefined();
  });

  it("drops an abandoned reservation, so the next request runs at once", async () => {
    const [a] = await stores();
    const acct = await account(a);
    const holder = (await a.idempotency.reserve(acct, "k", FP)) as string;
    await a.idempotency.abandon(acct, "k", holder);
    expect(await a.idempotency.find(acct, "k")).toBeUndefined();
    expect(await a.idempotency.reserve(acct, "k", FP)).toEqual(expect.any(String));
  });
});
