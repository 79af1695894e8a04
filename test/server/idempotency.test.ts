import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";

const monitor = { name: "once", type: "http", url: "https://example.com", interval_sec: 60 };

describe("Idempotency-Key", () => {
  const s = useServer();

  it("replays the first answer to a retried create and creates one monitor", async () => {
    const headers = { "idempotency-key": "create-once-1" };
    const first = await s.call("POST", "/api/v1/monitors", monitor, { headers });
    const retry = await s.call("POST", "/api/v1/monitors", monitor, { headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    const all = (await s.call("GET", "/api/v1/monitors")).body.data.filter((m: { name: string }) => m.name === "once");
    expect(all).toHaveLength(1);
  });

  it("answers 409 when the key comes back with a different body", async () => {
    const headers = { "idempotency-key": "create-once-2" };
    expect((await s.call("POST", "/api/v1/monitors", monitor, { headers })).status).toBe(201);
    const other = await s.call("POST", "/api/v1/monitors", { ...monitor, name: "different" }, { headers });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("conflict");
  });

  it("keeps keys per account", async () => {
    const otherKey = (await s.app.store.keys.create("idem-other", null)).key;
    const headers = { "idempotency-key": "shared-key" };
    const mine = await s.call("POST", "/api/v1/monitors", monitor, { headers });
    const theirs = await s.call("POST", "/api/v1/monitors", monitor, { headers, key: otherKey });
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });
});
