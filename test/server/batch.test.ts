import { describe, expect, it } from "vitest";
import { startServer } from "../support/server";
import { useServer } from "../support/use-server";

const monitor = (name: string) => ({ name, type: "http", url: `https://${name}.example.com`, interval_sec: 60 });
const BATCH = "/api/v1/monitors/batch";

describe("POST <collection>/batch", () => {
  const s = useServer({ rateLimit: 1000 });

  it("creates, updates and deletes in one request; a refused item fails only itself, naming its field", async () => {
    const doomed = (await s.call("POST", "/api/v1/monitors", monitor("doomed"))).body.data.id;
    const kept = (await s.call("POST", "/api/v1/monitors", monitor("kept"))).body.data.id;
    const answer = await s.call("POST", BATCH, {
      items: [
        { op: "create", idempotency_key: "batch-a", body: monitor("a") },
        { op: "create", body: { ...monitor("bad"), interval_sec: 5 } },
        { op: "update", id: kept, body: { interval_sec: 120 } },
        { op: "update", id: kept, body: { type: "tcp" } },
        { op: "delete", id: doomed },
        { op: "delete", id: "mon_0000000000000000000000000000" },
      ],
    });
    expect(answer.status).toBe(200);
    const items = answer.body.data.items;
    expect(items.map((i: { status: number }) => i.status)).toEqual([201, 422, 200, 422, 200, 404]);
    expect(items[0].data).toMatchObject({ name: "a", interval_sec: 60 });
    expect(items[1].error).toMatchObject({ code: "validation_failed", details: [{ field: "interval_sec" }] });
    expect(items[2].data).toMatchObject({ id: kept, interval_sec: 120 });
    expect(items[3].error.details).toEqual([
      { field: "type", message: "cannot be changed; create a new resource instead" },
    ]);
    expect(items[5].error.code).toBe("not_found");
    const names = (await s.call("GET", "/api/v1/monitors")).body.data.map((m: { name: string }) => m.name).sort();
    expect(names).toEqual(["a", "kept"]);
  });

  it("replays each item's key, the single create's header and the batch's key alike", async () => {
    const first = await s.call("POST", BATCH, {
      items: [{ op: "create", idempotency_key: "k-1", body: monitor("r1") }],
    });
    const single = await s.call("POST", "/api/v1/monitors", monitor("r2"), { headers: { "idempotency-key": "k-2" } });
    const again = await s.call("POST", BATCH, {
      items: [
        { op: "create", idempotency_key: "k-1", body: monitor("r1") },
        { op: "create", idempotency_key: "k-2", body: monitor("r2") },
        { op: "create", idempotency_key: "k-1", body: monitor("other") },
      ],
    });
    const [r1, r2, reused] = again.body.data.items;
    expect(r1).toMatchObject({ status: 201, replayed: true, data: { id: first.body.data.items[0].data.id } });
    expect(r2).toMatchObject({ status: 201, replayed: true, data: { id: single.body.data.id } });
    expect(reused).toMatchObject({ status: 409, error: { code: "conflict" } });
    const byBatch = await s.call("POST", "/api/v1/monitors", monitor("r1"), { headers: { "idempotency-key": "k-1" } });
    expect(byBatch.headers["idempotent-replayed"]).toBe("true");
    expect(byBatch.body.data.id).toBe(first.body.data.items[0].data.id);
    const made = (await s.call("GET", "/api/v1/monitors")).body.data.filter((m: { name: string }) =>
      /^r\d$/.test(m.name),
    );
    expect(made).toHaveLength(2);
  });

  it("counts once against the rate limit, whatever its size", async () => {
    const before = Number((await s.call("GET", "/api/v1/monitors")).headers["x-ratelimit-remaining"]);
    const items = Array.from({ length: 100 }, (_, i) => ({ op: "create", body: monitor(`n${i}`) }));
    const answer = await s.call("POST", BATCH, { items });
    expect(answer.body.data.items.every((i: { status: number }) => i.status === 201)).toBe(true);
    const after = Number((await s.call("GET", "/api/v1/monitors")).headers["x-ratelimit-remaining"]);
    expect(before - after).toBe(2);
  });

  it("refuses more than 100 items, and an item of no known op, in the error envelope", async () => {
    const tooMany = await s.call("POST", BATCH, {
      items: Array.from({ length: 101 }, () => ({ op: "delete", id: "x" })),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.details[0].field).toBe("items");
    const unknown = await s.call("POST", BATCH, { items: [{ op: "rename", id: "x" }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details[0].field).toMatch(/^items\[0\]/);
  });

  it("is not served when the server runs without it", async () => {
    const plain = await startServer({ batchWrites: false });
    try {
      // `/monitors/batch` is then one monitor's path, on which POST is not allowed.
      expect((await plain.call("POST", BATCH, { items: [{ op: "create", body: monitor("x") }] })).status).toBe(405);
      expect(Object.keys((await plain.call("GET", "/api/v1/openapi.json")).body.paths)).not.toContain(BATCH);
      expect(Object.keys((await s.call("GET", "/api/v1/openapi.json")).body.paths)).toContain(BATCH);
    } finally {
      await plain.close();
    }
  });
});
