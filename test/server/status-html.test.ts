import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "puppeteer-core";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { startServer, type TestServer } from "../support/server";
import { launchChromium } from "../support/chromium";

const DAY_MS = 86_400_000;
const ARTIFACTS = join(REPO_ROOT, "test-artifacts");
const EVIL = `Shop <script>alert(1)</script> & "co"`;

/** A page with three monitors and 90 days of history: one flaky day, a gap, an open incident. */
async function seed(s: TestServer, now: number): Promise<{ flakyDay: string; gapDay: string; ids: string[] }> {
  const create = async (name: string) =>
    (await s.call("POST", "/api/v1/monitors", { name, type: "http", url: "https://example.com/", interval_sec: 60 }))
      .body.data.id as string;
  const ids = [await create("API"), await create(EVIL), await create("Docs")];
  const record = async (id: string, up: boolean, at: number) =>
    await s.app.store.recordCheck(
      id,
      { up, response_time_ms: up ? 120 : null, status_code: up ? 200 : 503, error: up ? null : "HTTP 503" },
      at,
    );
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  for (let ago = 89; ago >= 0; ago--) {
    if (ago >= 50 && ago <= 60) continue;
    for (let h = 0; h < 4; h++) {
      const at = Math.min(now - 1000, today - ago * DAY_MS + h * 3_600_000 + 60_000);
      await record(ids[0] as string, !(ago === 10 && h === 0), at);
      if (ago < 30) await record(ids[1] as string, !(ago === 0 && h >= 1), at);
    }
  }
  expect((await s.call("POST", `/api/v1/monitors/${ids[2]}/pause`)).status).toBe(200);
  const page = await s.call("POST", "/api/v1/status-pages", {
    slug: "acme",
    title: "Acme <Status>",
    description: "Our services",
    monitor_ids: ids,
  });
  expect(page.status).toBe(201);
  const date = (ago: number) => new Date(today - ago * DAY_MS).toISOString().slice(0, 10);
  return { flakyDay: date(10), gapDay: date(55), ids };
}

describe("HTML status page at /status/<slug>", () => {
  let s: TestServer;
  let browser: Browser;
  let seeded: Awaited<ReturnType<typeof seed>>;

  beforeAll(async () => {
    s = await startServer();
    seeded = await seed(s, Date.now());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("answers HTML, briefly cached, without ids, and escapes names", async () => {
    const res = await request(`${s.url}/status/acme`);
    const html = await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["cache-control"]).toBe("public, no-cache");
    expect(html).not.toMatch(/mon_|sp_|example\.com/);
    // One script only, the page's own (times in the viewer's zone): none from a name.
    expect(html.match(/<script\b/g)).toHaveLength(1);
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("Shop &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;");
    expect(html).not.toMatch(/<link|src=|url\(/);
    const missing = await request(`${s.url}/status/nope-page`);
    expect(missing.statusCode).toBe(404);
    expect(await missing.body.text()).toContain("No status page");
    // The JSON document stays.
    expect((await s.call("GET", "/api/status/acme.json", undefined, { key: null })).body.data.title).toBe(
      "Acme <Status>",
    );
  });

  it("renders in a real browser: names, states, 90 labelled cells per monitor, incidents", async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 900 });
    await page.setJavaScriptEnabled(false);
    await page.goto(`${s.url}/status/acme`, { waitUntil: "load" });
    expect(await page.$eval("h1", (h) => h.textContent)).toBe("Acme <Status>");
    expect(await page.$eval(".overall", (p) => p.textContent)).toBe("! Some systems are down");
    const monitors = await page.$$eval("li.monitor", (items) =>
      items.map((li) => ({
        name: li.querySelector("h3")?.textContent,
        state: li.querySelector(".state")?.textContent,
        cells: [...li.querySelectorAll("ol.bar > li")].map((c) => ({
          cls: c.className,
          label: c.getAttribute("title"),
          text: c.textContent,
        })),
      })),
    );
    expect(monitors.map((m) => [m.name, m.state])).toEqual([
      ["API", "✓ Up"],
      [EVIL, "✗ Down"],
      ["Docs", "‖ Paused"],
    ]);
    for (const m of monitors) {
      expect(m.cells).toHaveLength(90);
      for (const c of m.cells) expect(c.text).toBe(c.label);
    }
    const api = monitors[0]?.cells ?? [];
    expect(api.find((c) => c.label?.startsWith(seeded.flakyDay))).toEqual({
      cls: "bad",
      label: `${seeded.flakyDay}: 75% up`,
      text: `${seeded.flakyDay}: 75% up`,
    });
    expect(api.find((c) => c.label?.startsWith(seeded.gapDay))?.label).toBe(`${seeded.gapDay}: no data`);
    expect(api.filter((c) => c.cls === "ok")).toHaveLength(90 - 11 - 1);
    expect(monitors[2]?.cells.every((c) => c.cls === "none")).toBe(true);
    const incidents = await page.$$eval("ul.incidents > li", (items) => items.map((li) => li.textContent ?? ""));
    expect(incidents[0]).toMatch(/^Shop <script>alert\(1\)<\/script> & "co" was down from .*, ongoing$/);
    expect(incidents.some((t) => /^API was down from .* resolved/.test(t))).toBe(true);
    expect(await page.$$eval("script", (scripts) => scripts.length)).toBe(1);
    expect(await page.$eval("footer time", (t) => t.getAttribute("datetime"))).toMatch(/^\d{4}-\d\d-\d\dT/);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "status-page.png"), fullPage: true });
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
    expect(await page.$eval("body", (b) => b.ownerDocument.defaultView?.getComputedStyle(b).backgroundColor)).toBe(
      "rgb(13, 17, 23)",
    );
    await page.screenshot({ path: join(ARTIFACTS, "status-page-dark.png"), fullPage: true });
    expect(existsSync(join(ARTIFACTS, "status-page.png"))).toBe(true);
    await page.close();
  });

  it("shows a degraded monitor as its own state, in its own colour, and the page as degraded performance", async () => {
    const create = async (name: string) =>
      (
        await s.call("POST", "/api/v1/monitors", {
          name,
          type: "http",
          url: "https://example.com/",
          interval_sec: 60,
          degraded_response_ms: 500,
        })
      ).body.data.id as string;
    const [fast, slow] = [await create("Fast"), await create("Slow")];
    const now = Date.now();
    await s.app.store.recordCheck(fast, { up: true, response_time_ms: 120, status_code: 200, error: null }, now - 2000);
    await s.app.store.recordCheck(
      slow,
      { up: true, degraded: true, response_time_ms: 900, status_code: 200, error: null },
      now - 1000,
    );
    expect(
      (await s.call("POST", "/api/v1/status-pages", { slug: "slowish", title: "Slowish", monitor_ids: [fast, slow] }))
        .status,
    ).toBe(201);
    const doc = (await s.call("GET", "/api/status/slowish.json", undefined, { key: null })).body.data;
    expect(doc.status).toBe("degraded");
    expect(
      doc.monitors.map((m: { name: string; status: string; uptime_pct_24h: number }) => [
        m.name,
        m.status,
        m.uptime_pct_24h,
      ]),
    ).toEqual([
      ["Fast", "up", 100],
      ["Slow", "degraded", 100],
    ]);

    const page = await browser.newPage();
    await page.setJavaScriptEnabled(false);
    await page.goto(`${s.url}/status/slowish`, { waitUntil: "load" });
    expect(await page.$eval(".overall", (p) => p.textContent)).toBe("◔ Degraded performance");
    const states = await page.$$eval("li.monitor .state", (items) =>
      items.map((el) => ({ text: el.textContent, colour: el.ownerDocument.defaultView?.getComputedStyle(el).color })),
    );
    expect(states.map((st) => st.text)).toEqual(["✓ Up", "◔ Degraded"]);
    // Its own colour: neither the up green nor the down red (nor the bar's amber).
    expect(states[1]?.colour).toBe("rgb(188, 76, 0)");
    expect(states[1]?.colour).not.toBe(states[0]?.colour);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "status-page-degraded.png"), fullPage: true });
    await page.close();
  });

  it("is rate limited per address like the JSON document", async () => {
    const limited = await startServer({ publicRateLimit: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await request(`${limited.url}/status/whatever`)).statusCode);
      expect(codes).toEqual([404, 404, 404, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
