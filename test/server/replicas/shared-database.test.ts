import { AsyncResource } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { useReplicas } from "../../support/replicas";
import { eventually } from "../../support/target";
import { type TestServer, httpMonitorId } from "../../support/server";

describe("two replicas on one PostgreSQL database", () => {
  const [a, b] = useReplicas();

  it("serve what the other wrote, its secrets opened with the shared key file", async () => {
    const id = await httpMonitorId(a, "shop", "https://shop.example", { headers: { authorization: "Bearer t0ken" } });
    const read = await b.call("GET", `/api/v1/monitors/${id}`);
    expect(read.status).toBe(200);
    // A secret header reads as its fingerprint: the same on both, as both hold the same key file.
    expect(read.body.data.headers).toEqual({
      authorization: a.shownHeader(id, "authorization", "Bearer t0ken"),
    });
    expect(read.body.data.headers).toEqual((await a.call("GET", `/api/v1/monitors/${id}`)).body.data.headers);
  });

  it("replay an Idempotency-Key's answer on the other replica, creating one monitor", async () => {
    const body = { name: "once", type: "http", url: "https://once.example", interval_sec: 60 };
    const headers = { "idempotency-key": "create-once-1" };
    const first = await a.call("POST", "/api/v1/monitors", body, { headers });
    const again = await b.call("POST", "/api/v1/monitors", body, { headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    const names = (await b.call("GET", "/api/v1/monitors?limit=100")).body.data.map((m: { name: string }) => m.name);
    expect(names.filter((n: string) => n === "once")).toHaveLength(1);
  });

  it("refuse on one replica a key revoked through the other, once it heard the commit", async () => {
    const account = (await a.app.store.keys.authenticate(a.key))?.accountId as string;
    const { key, info } = await a.app.store.keys.create("acme", "second");
    expect(account).toBeDefined();
    expect((await b.call("GET", "/api/v1/monitors", undefined, { key })).status).toBe(200);
    await a.app.store.keys.revoke(info.id);
    await eventually(async () => (await b.call("GET", "/api/v1/monitors", undefined, { key })).status === 401, 5_000);
  });

  it("show on one replica a monitor changed, checked or unlinked through the other, and keep caches that no write touched", async () => {
    const channel = (
      await a.call("POST", "/api/v1/channels", { name: "ops", type: "email", config: { address: "ops@example.com" } })
    ).body.data.id as string;
    const id = await httpMonitorId(a, "api", "https://api.example", { channel_ids: [channel] });
    const onB = async () => (await b.call("GET", `/api/v1/monitors/${id}`)).body.data;
    expect(await onB()).toMatchObject({ name: "api", channel_ids: [channel], health: "pending" });

    await a.call("PATCH", `/api/v1/monitors/${id}`, { name: "api v2" });
    await eventually(async () => (await onB()).name === "api v2", 5_000);
    await a.app.store.recordCheck(id, { up: false, response_time_ms: 5, status_code: 503, error: "HTTP 503" });
    await eventually(async () => (await onB()).health === "down", 5_000);
    // Deleting the channel deletes its links with it: the monitor on B loses it too.
    await a.call("DELETE", `/api/v1/channels/${channel}`);
    await eventually(async () => (await onB()).channel_ids.length === 0, 5_000);

    // Requests through A (rate counts) and a check of a monitor (a monitor's row) do not empty B's key cache.
    const keys = b.app.store.keys as unknown as { verify: (key: string) => Promise<unknown> };
    const verify = keys.verify.bind(keys);
    let verified = 0;
    keys.verify = async (key) => (verified++, await verify(key));
    try {
      await b.call("GET", "/api/v1/monitors");
      const before = verified;
      for (let i = 0; i < 5; i++) await a.call("GET", "/api/v1/monitors");
      await a.app.store.recordCheck(id, { up: true, response_time_ms: 5, status_code: 200, error: null });
      await eventually(async () => (await onB()).health === "up", 5_000);
      expect(verified).toBe(before);
    } finally {
      keys.verify = verify;
    }
  });

  it("keep a monitor's kept read true through checks: its own in place, the other's read there, none that raced a commit", async () => {
    const id = await httpMonitorId(a, "kept", "https://kept.example");
    const get = async (s: TestServer) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
    // Reads of the database by A's monitor repository (a kept read answers without one).
    const monitors = a.app.store.monitors as unknown as { read: (...args: unknown[]) => Promise<unknown> };
    const read = monitors.read.bind(monitors);
    let reads = 0;
    monitors.read = async (...args) => (reads++, await read(...args));
    try {
      expect(await get(a)).toMatchObject({ health: "pending", last_checked_at: null });
      expect(await get(b)).toMatchObject({ health: "pending", last_checked_at: null });

      // A check through A: A answers it at once, from its kept read, and B once it heard of it.
      const before = reads;
      const down = await a.app.store.recordCheck(id, { up: false, response_time_ms: 5, status_code: 503, error: "x" });
      expect(await get(a)).toMatchObject({
        name: "kept",
        health: "down",
        last_checked_at: down?.heartbeat?.checked_at,
      });
      expect(reads).toBe(before);
      await eventually(async () => (await get(b)).health === "down", 5_000);

      // A check through B: read on A.
      const up = await b.app.store.recordCheck(id, { up: true, response_time_ms: 5, status_code: 200, error: null });
      await eventually(async () => (await get(a)).last_checked_at === up?.heartbeat?.checked_at, 5_000);
      expect((await get(a)).health).toBe("up");

      // A read outside the check's transaction, after its write and before its commit, reads the
      // row as it was: A must not keep it past the commit.
      const account = (await a.app.store.keys.authenticate(a.key))?.accountId as string;
      const outside = AsyncResource.bind(() => a.app.store.monitors.get(account, id));
      let raced: unknown;
      const slow = await a.app.store.db.transaction(async () => {
        const recorded = await a.app.store.recordCheck(id, {
          up: false,
          response_time_ms: 5,
          status_code: 503,
          error: "x",
        });
        raced = await outside();
        return recorded;
      });
      expect(raced).toMatchObject({ health: "up", last_checked_at: up?.heartbeat?.checked_at });
      expect(await get(a)).toMatchObject({ health: "down", last_checked_at: slow?.heartbeat?.checked_at });
      await eventually(async () => (await get(b)).last_checked_at === slow?.heartbeat?.checked_at, 5_000);
    } finally {
      monitors.read = read;
    }
  });
});

describe("two replicas on one PostgreSQL database count limits together", () => {
  const [a, b] = useReplicas({ rateLimit: 10, authFailureLimit: 3 });

  it("a key's rate limit: its budget once, whichever replica its requests reach", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await (i % 2 === 0 ? a : b).call("GET", "/api/v1/monitors")).status);
    expect(statuses).toEqual(Array(10).fill(200));
    const over = await b.call("GET", "/api/v1/monitors");
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("rate_limited");
    expect((await a.call("GET", "/api/v1/monitors")).status).toBe(429);
  });

  it("failed authentications of an address: throttled on one replica after failures on the other", async () => {
    const wrong = `uk_${"x".repeat(32)}`;
    for (let i = 0; i < 3; i++)
      expect((await a.call("GET", "/api/v1/monitors", undefined, { key: wrong })).status).toBe(401);
    const throttled = await b.call("GET", "/api/v1/monitors", undefined, { key: wrong });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error.message).toMatch(/Too many failed authentications from this address/);
  });
});
