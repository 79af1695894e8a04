import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";

const monitor = { name: "replayed", type: "http", url: "https://example.com", interval_sec: 60 };
const channel = { name: "hook", type: "webhook", config: { url: "https://hooks.example.com/t/abc" } };
const page = { slug: "replay-page", title: "Replay" };

describe("Idempotency-Key replays while the created object exists", () => {
  const s = useServer();

  const post = (path: string, body: unknown, key: string) =>
    s.call("POST", path, body, { headers: { "idempotency-key": key } });

  for (const [path, body] of [
    ["/api/v1/monitors", monitor],
    ["/api/v1/channels", channel],
    ["/api/v1/status-pages", page],
  ] as const) {
    it(`${path}: a replay returns the original object; after its deletion the key creates a new one`, async () => {
      const key = `replay-${path}`;
      const first = await post(path, body, key);
      expect(first.status).toBe(201);
      const replay = await post(path, body, key);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
      expect(replay.body.data.id).toBe(first.body.data.id);

      expect((await s.call("DELETE", `${path}/${first.body.data.id}`)).status).toBe(200);
      const again = await post(path, body, key);
      expect(again.status).toBe(201);
      expect(again.headers["idempotent-replayed"]).toBeUndefined();
      expect(again.body.data.id).not.toBe(first.body.data.id);
      // The new object is what the key replays from now on.
      expect((await post(path, body, key)).body.data.id).toBe(again.body.data.id);
      await s.call("DELETE", `${path}/${again.body.data.id}`);
    });
  }

  it("/api/v1/maintenance-windows: a replay returns the original window while it exists", async () => {
    const m = (await s.call("POST", "/api/v1/monitors", { ...monitor, name: "for a window" })).body.data;
    const window = {
      name: "w",
      monitor_ids: [m.id],
      starts_at: "2030-01-01T00:00:00Z",
      ends_at: "2030-01-01T01:00:00Z",
    };
    const first = await post("/api/v1/maintenance-windows", window, "replay-window");
    expect(first.status).toBe(201);
    const replay = await post("/api/v1/maintenance-windows", window, "replay-window");
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect((await s.call("GET", "/api/v1/maintenance-windows")).body.data).toHaveLength(1);
    await s.call("DELETE", `/api/v1/maintenance-windows/${first.body.data.id}`);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
  });

  it("answers 409 to the same key with a different body, before and after the object is deleted", async () => {
    const first = await post("/api/v1/monitors", monitor, "replay-conflict");
    const other = { ...monitor, name: "other" };
    expect((await post("/api/v1/monitors", other, "replay-conflict")).body.error.code).toBe("conflict");
    await s.call("DELETE", `/api/v1/monitors/${first.body.data.id}`);
    expect((await post("/api/v1/monitors", other, "replay-conflict")).status).toBe(409);
  });

  it("never keeps a refusal: the same key runs again once the cause is gone", async () => {
    const taken = await s.call("POST", "/api/v1/status-pages", { slug: "replay-taken", title: "First" });
    const second = { slug: "replay-taken", title: "Second" };
    expect((await post("/api/v1/status-pages", second, "replay-refused")).status).toBe(409);
    await s.call("DELETE", `/api/v1/status-pages/${taken.body.data.id}`);
    const retried = await post("/api/v1/status-pages", second, "replay-refused");
    expect(retried.status).toBe(201);
    expect(retried.body.data.title).toBe("Second");
  });
});
