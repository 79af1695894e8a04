import { setTimeout as sleep } from "node:timers/promises";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../../support/server";
import { startTarget, type Target } from "../../support/target";

// The document carries the time it was computed (`updated_at`), so a computed-again answer has
// another ETag, and a kept one the same. No checker: the only writes are the test's.
describe("a status page's answer is computed again after writes to the monitors it shows, not to others", () => {
  let s: TestServer;
  let target: Target;
  let shown: string;
  let other: string;
  const document = async () => {
    const res = await request(`${s.url}/api/status/keyed.json`);
    const body = JSON.parse(await res.body.text()) as { data: { updated_at: string; monitors: { name: string }[] } };
    return { etag: res.headers.etag as string, doc: body.data };
  };
  const record = async (id: string) => {
    const res = await s.call("POST", "/api/v1/monitors/trigger", { monitor_ids: [id], record: true });
    expect(res.status).toBe(200);
    expect(res.body.data.runs).toEqual([expect.objectContaining({ monitor_id: id, recorded: true })]);
  };

  beforeAll(async () => {
    target = await startTarget();
    s = await startServer({ checker: false });
    const monitor = async (name: string) =>
      (await s.call("POST", "/api/v1/monitors", { name, type: "http", url: target.url, interval_sec: 60 })).body.data
        .id as string;
    shown = await monitor("shown");
    other = await monitor("other");
    const page = await s.call("POST", "/api/v1/status-pages", {
      slug: "keyed",
      title: "Keyed",
      monitor_ids: [shown],
      sections: [{ name: "Core", components: [{ key: "api", name: "API", monitors: [shown] }] }],
    });
    expect(page.status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
    await target?.close();
  });

  it("keeps the answer through another monitor's checks and edits", async () => {
    const first = await document();
    await sleep(5);
    expect((await document()).etag).toBe(first.etag);
    // A check of the other monitor (its heartbeat, day roll-up, health), an edit, a pause.
    await record(other);
    await record(other);
    expect((await s.call("PATCH", `/api/v1/monitors/${other}`, { name: "other, renamed" })).status).toBe(200);
    expect((await s.call("POST", `/api/v1/monitors/${other}/pause`)).status).toBe(200);
    const kept = await document();
    expect(kept.etag).toBe(first.etag);
    expect(kept.doc.updated_at).toBe(first.doc.updated_at);
  });

  it("computes it again after a check or an edit of a monitor it shows", async () => {
    const before = await document();
    await sleep(5);
    await record(shown);
    const checked = await document();
    expect(checked.etag).not.toBe(before.etag);
    expect(Date.parse(checked.doc.updated_at)).toBeGreaterThan(Date.parse(before.doc.updated_at));
    await sleep(5);
    expect((await s.call("PATCH", `/api/v1/monitors/${shown}`, { name: "shown, renamed" })).status).toBe(200);
    const renamed = await document();
    expect(renamed.etag).not.toBe(checked.etag);
    expect(renamed.doc.monitors.map((m) => m.name)).toEqual(["shown, renamed"]);
  });
});
