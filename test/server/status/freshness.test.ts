import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreStatusPageId, startServer, type TestServer, openIncident } from "../../support/server";
import { startTarget, type Target } from "../../support/target";
import { shownWithin } from "../../support/wait";

/** The monitors' check interval, in seconds: a change must show on the page within one. */
const INTERVAL_SEC = 2;

/** A page's answer: status, headers, body. */
async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

describe("a status page's answers are kept, and stay true", () => {
  let s: TestServer;
  let target: Target;
  let pageId: string;
  let monitorId: string;
  const html = () => get(`${s.url}/status/fresh`);
  const doc = async () =>
    JSON.parse((await get(`${s.url}/api/status/fresh.json`)).body).data as {
      sections: { components: { key: string; status: string }[] }[];
      incidents: { title: string }[];
      maintenance: { name: string; in_progress: boolean }[];
    };
  const state = async (key: string) =>
    (await doc()).sections.flatMap((x) => x.components).find((c) => c.key === key)?.status;

  beforeAll(async () => {
    target = await startTarget();
    s = await startServer({ checker: true, minIntervalSec: 1 });
    monitorId = (
      await s.call("POST", "/api/v1/monitors", {
        name: "api",
        type: "http",
        url: target.url,
        interval_sec: INTERVAL_SEC,
        timeout_sec: 1,
      })
    ).body.data.id as string;
    pageId = await coreStatusPageId(s, { slug: "fresh", title: "Fresh" }, monitorId);
    await shownWithin(
      () => state("api"),
      (v) => v === "operational",
      10_000,
    );
  });
  afterAll(async () => {
    await s?.close();
    await target?.close();
  });

  it("answers a conditional request with 304 while nothing changed, by ETag and by Last-Modified", async () => {
    // The checker writes every second: pause it, so that the two reads see the same store.
    expect((await s.call("POST", `/api/v1/monitors/${monitorId}/pause`)).status).toBe(200);
    try {
      for (const path of ["/status/fresh", "/api/status/fresh.json"]) {
        const first = await get(`${s.url}${path}`);
        expect(first.status).toBe(200);
        expect(first.headers["cache-control"]).toBe("public, no-cache");
        const etag = first.headers.etag as string;
        expect(etag).toMatch(/^"[\w-]{27}"$/);
        const again = await get(`${s.url}${path}`, { "if-none-match": etag });
        expect(again.status).toBe(304);
        expect(again.body).toBe("");
        expect(
          (await get(`${s.url}${path}`, { "if-modified-since": first.headers["last-modified"] as string })).status,
        ).toBe(304);
        expect((await get(`${s.url}${path}`, { "if-none-match": '"other"' })).status).toBe(200);
      }
    } finally {
      expect((await s.call("POST", `/api/v1/monitors/${monitorId}/resume`)).status).toBe(200);
    }
  });

  it("shows a monitor's change of state within one check interval, and at once once it is stored", async () => {
    for (const [healthy, shown] of [
      [false, "down"],
      [true, "operational"],
    ] as const) {
      const before = await html();
      target.healthy = healthy;
      // The check that sees it runs within one interval; the page shows it as soon as it is stored.
      const ms = await shownWithin(
        () => state("api"),
        (v) => v === shown,
        INTERVAL_SEC * 1000 + 1_500,
      );
      expect(ms).toBeLessThanOrEqual(INTERVAL_SEC * 1000 + 1_500);
      const after = await html();
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.body).toContain(`<span class="state ${shown}">`);
      expect((await get(`${s.url}/status/fresh`, { "if-none-match": before.headers.etag as string })).status).toBe(200);
      const monitor = (await s.call("GET", `/api/v1/monitors/${monitorId}`)).body.data as { health: string };
      expect(monitor.health).toBe(healthy ? "up" : "down");
    }
  });

  it("shows an incident opened through the API and a manual component's state on the next request", async () => {
    await html();
    await doc();
    await openIncident(s, pageId, {
      title: "Mail is slow",
      message: "Queues are long.",
      components: { desk: "degraded" },
    });
    expect((await doc()).incidents.map((i) => i.title)).toContain("Mail is slow");
    expect((await html()).body).toContain("Mail is slow");
    expect((await s.call("PUT", `/api/v1/status-pages/${pageId}/components/desk`, { state: "down" })).status).toBe(200);
    expect(await state("desk")).toBe("down");
    expect((await html()).body).toMatch(/Support desk<\/h3>\s*<span class="state down">/);
  });

  it("shows a maintenance window in progress once it starts, with no write in between", async () => {
    expect((await s.call("POST", `/api/v1/monitors/${monitorId}/pause`)).status).toBe(200);
    const starts = Date.now() + 2_500;
    expect(
      (
        await s.call("POST", "/api/v1/maintenance-windows", {
          name: "Upgrade",
          monitor_ids: [monitorId],
          starts_at: new Date(starts).toISOString(),
          ends_at: new Date(starts + 3_600_000).toISOString(),
        })
      ).status,
    ).toBe(201);
    expect((await doc()).maintenance).toEqual([expect.objectContaining({ name: "Upgrade", in_progress: false })]);
    await html();
    await new Promise((r) => setTimeout(r, Math.max(0, starts - Date.now() + 50)));
    expect((await doc()).maintenance).toEqual([expect.objectContaining({ name: "Upgrade", in_progress: true })]);
    expect((await html()).body).toMatch(/In progress/i);
  });
});
