import { request } from "undici";
import { beforeAll, describe, expect, it } from "vitest";
import { coreStatusPageId, httpMonitorId, type TestServer, openIncident } from "../../support/server";
import { useReplicas } from "../../support/replicas";
import { shownWithin } from "../../support/wait";

describe("a status page kept by two replicas on one PostgreSQL database", () => {
  const [a, b] = useReplicas();
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
    monitorId = await httpMonitorId(a, "api", "https://api.example");
    pageId = await coreStatusPageId(a, { slug: "shared", title: "Shared" }, monitorId);
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

    await openIncident(a, pageId, { title: "API errors", message: "503s.", components: { api: "major-outage" } });
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
