import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filePostgres } from "../../support/store-engines";
import { newKey, startServer, type TestServer, httpMonitorId } from "../../support/server";

const dir = mkdtempSync(join(tmpdir(), "uptime-replica-pages-"));

/** Polls `read` until `wanted(value)`; the milliseconds it took (fails past `limitMs`). */
async function shownWithin<T>(read: () => Promise<T>, wanted: (value: T) => boolean, limitMs: number): Promise<number> {
  const from = Date.now();
  for (;;) {
    if (wanted(await read())) return Date.now() - from;
    if (Date.now() - from > limitMs) throw new Error(`not shown within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("a status page kept by two replicas on one PostgreSQL database", () => {
  let a: TestServer;
  let b: TestServer;
  let pageId: string;
  let monitorId: string;
  const component = async (s: TestServer, key: string) => {
    const res = await request(`${s.url}/api/status/shared.json`);
    const doc = JSON.parse(await res.body.text()).data as {
      sections: { components: { key: string; status: string }[] }[];
    };
    return doc.sections.flatMap((x) => x.components).find((c) => c.key === key)?.status;
  };
  const html = async (s: TestServer) => await (await request(`${s.url}/status/shared`)).body.text();

  beforeAll(async () => {
    const db = await (await filePostgres()).createDatabase();
    const secretKeyFile = join(dir, "secret.key");
    const devKey = newKey();
    a = await startServer({ db, secretKeyFile, devKey });
    b = await startServer({ db, secretKeyFile, devKey });
    monitorId = await httpMonitorId(a, "api", "https://api.example");
    pageId = (
      await a.call("POST", "/api/v1/status-pages", {
        slug: "shared",
        title: "Shared",
        sections: [
          {
            name: "Core",
            components: [
              { key: "api", name: "API", monitors: [monitorId] },
              { key: "desk", name: "Support desk", rule: "manual" },
            ],
          },
        ],
      })
    ).body.data.id as string;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows on B's page, within a check interval, a check, an incident and a manual state written through A", async () => {
    // B has the page kept: nothing B wrote itself will tell it of A's writes.
    expect(await component(b, "api")).toBe("unknown");
    await html(b);
    await a.app.store.recordCheck(monitorId, {
      up: false,
      response_time_ms: null,
      status_code: 503,
      error: "HTTP 503",
    });
    expect(
      await shownWithin(
        () => component(b, "api"),
        (v) => v === "down",
        2_000,
      ),
    ).toBeLessThan(2_000);
    // The HTML is an answer kept apart from the JSON: it too shows the change within the interval.
    await shownWithin(
      () => html(b),
      (page) => /API<\/h3>\s*<span class="state down">/.test(page),
      2_000,
    );

    expect(
      (
        await a.call("POST", `/api/v1/status-pages/${pageId}/incidents`, {
          title: "API errors",
          message: "503s.",
          components: { api: "major-outage" },
        })
      ).status,
    ).toBe(201);
    await shownWithin(
      () => html(b),
      (page) => page.includes("API errors"),
      2_000,
    );

    expect(
      (await a.call("PUT", `/api/v1/status-pages/${pageId}/components/desk`, { state: "maintenance" })).status,
    ).toBe(200);
    await shownWithin(
      () => component(b, "desk"),
      (v) => v === "maintenance",
      2_000,
    );
  });

  it("keeps B's answer through A's checks of a monitor the page does not show, and follows one it shows", async () => {
    const other = await httpMonitorId(a, "other", "https://other.example");
    // The document carries when it was computed: an answer computed again has another ETag.
    const etag = async () => (await request(`${b.url}/api/status/shared.json`)).headers.etag as string;
    const kept = await etag();
    for (let i = 0; i < 3; i++)
      await a.app.store.recordCheck(other, { up: i % 2 === 0, response_time_ms: 5, status_code: 200, error: null });
    // A's announcements reach B within milliseconds; B's answer must not move for them.
    await new Promise((r) => setTimeout(r, 500));
    expect(await etag()).toBe(kept);
    await a.app.store.recordCheck(monitorId, { up: true, response_time_ms: 5, status_code: 200, error: null });
    await shownWithin(
      () => etag(),
      (now) => now !== kept,
      2_000,
    );
  });
});
