import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/pulumi-engine";
import { startServer, type TestServer } from "../../support/server";
import { launchChromium } from "../../support/chromium";

const ARTIFACTS = join(REPO_ROOT, "test-artifacts");
const AXE = readFileSync(createRequire(join(REPO_ROOT, "package.json")).resolve("axe-core/axe.min.js"), "utf8");
const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** What a person reads on the page: the overall state, each component's name and state, the open incident, the maintenance. */
async function facts(page: Page) {
  return {
    overall: await page.$eval(".overall", (p) => p.textContent),
    components: await page.$$eval("li.component", (items) =>
      items.map((li) => `${li.querySelector("h3")?.textContent}: ${li.querySelector(".state")?.textContent}`),
    ),
    sections: await page.$$eval("section h2", (hs) => hs.map((h) => h.textContent)),
    active: await page.$$eval("section.active article h3", (hs) => hs.map((h) => h.textContent)),
    // Times by the moment they name: with JavaScript they are shown in the viewer's zone.
    maintenance: await page.$$eval("ul.maintenance li", (items) =>
      items.map((li) => {
        const copy = li.cloneNode(true) as typeof li;
        for (const t of copy.querySelectorAll("time")) t.replaceWith(t.getAttribute("datetime") ?? "");
        return copy.textContent;
      }),
    ),
    cells: await page.$$eval("li.component ol.bar", (bars) => bars.map((b) => b.children.length)),
    charts: await page.$$eval("figure.chart svg", (svgs) => svgs.map((s) => s.getAttribute("aria-label"))),
  };
}

describe("the status page in Chromium", () => {
  let s: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    s = await startServer();
    const monitor = async (name: string) =>
      (await s.call("POST", "/api/v1/monitors", { name, type: "http", url: "https://example.com/", interval_sec: 60 }))
        .body.data.id as string;
    const [api, web, cdn] = [await monitor("api-1"), await monitor("web-1"), await monitor("cdn-1")];
    const now = Date.now();
    for (let i = 48; i >= 1; i--) {
      for (const id of [api, web, cdn])
        await s.app.store.recordCheck(
          id,
          { up: true, response_time_ms: 80 + (i % 7) * 20, status_code: 200, error: null },
          now - i * 1_800_000,
        );
    }
    await s.app.store.recordCheck(
      api,
      { up: false, response_time_ms: null, status_code: 503, error: "HTTP 503" },
      now - 1000,
    );
    const page = (
      await s.call("POST", "/api/v1/status-pages", {
        slug: "acme",
        title: "Acme",
        description: "Services of Acme",
        sections: [
          {
            name: "Core",
            components: [
              { key: "api", name: "Public API", monitors: [api] },
              { key: "web", name: "Website", monitors: [web, cdn], rule: "all-down" },
            ],
          },
          { name: "People", components: [{ key: "desk", name: "Support desk", rule: "manual" }] },
        ],
      })
    ).body.data;
    await s.call("POST", `/api/v1/status-pages/${page.id}/incidents`, {
      title: "API errors",
      message: "Requests fail with 503.",
      components: { api: "major-outage" },
    });
    const start = new Date(now + 86_400_000).toISOString();
    await s.call("POST", "/api/v1/maintenance-windows", {
      name: "Database upgrade",
      monitor_ids: [web],
      starts_at: start,
      ends_at: new Date(now + 90_000_000).toISOString(),
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  for (const size of WIDTHS) {
    it(`shows the same facts with JavaScript on and off at ${size.name} width, with no serious accessibility violation`, async () => {
      const seen = [];
      for (const js of [true, false]) {
        const page = await browser.newPage();
        await page.setViewport({ width: size.width, height: size.height });
        await page.setJavaScriptEnabled(js);
        await page.setBypassCSP(true); // only so that axe can be injected; the page runs its one script (local times) under its own policy
        await page.goto(`${s.url}/status/acme`, { waitUntil: "load" });
        seen.push(await facts(page));
        if (js) {
          expect(await page.evaluate("document.querySelectorAll('script').length")).toBe(1);
          await page.addScriptTag({ content: AXE });
          const result = (await page.evaluate("axe.run({ resultTypes: ['violations'] })")) as {
            violations: { id: string; impact: string; help: string; nodes: unknown[] }[];
          };
          const serious = result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ${v.help}, ${v.nodes.length} nodes`);
          expect(serious).toEqual([]);
          // A day cell shows its label on focus, without script.
          await page.focus("li.component ol.bar li:last-child");
          expect(await page.$eval("li.component ol.bar li:last-child", (li) => li.getAttribute("title"))).toMatch(
            /^\d{4}-\d\d-\d\d: .*API errors/,
          );
          const overflow = await page.evaluate(
            "document.documentElement.scrollWidth > document.documentElement.clientWidth",
          );
          expect(overflow).toBe(false);
        }
        mkdirSync(ARTIFACTS, { recursive: true });
        await page.screenshot({
          path: join(ARTIFACTS, `status-page-components-${size.name}-${js ? "js" : "nojs"}.png`),
          fullPage: true,
        });
        await page.close();
      }
      expect(seen[1]).toEqual(seen[0]);
      const f = seen[0] as Awaited<ReturnType<typeof facts>>;
      expect(f.overall).toBe("! Some systems are down");
      expect(f.components).toEqual(["Public API: ✗ Down", "Website: ✓ Operational", "Support desk: ✓ Operational"]);
      expect(f.sections).toEqual(expect.arrayContaining(["Active incidents", "Maintenance", "Core", "People"]));
      expect(f.active).toEqual(["API errors"]);
      expect(f.maintenance[0]).toMatch(/^Upcoming: Database upgrade/);
      expect(f.cells).toEqual([90, 90]);
      expect(f.charts).toHaveLength(4);
      expect(f.charts[0]).toMatch(/^Response time \(24h\): ⌀ \d+ ms, max \d+ ms$/);
    });
  }

  it("links each incident to its permalink and the history page", async () => {
    const page = await browser.newPage();
    await page.setJavaScriptEnabled(false);
    await page.goto(`${s.url}/status/acme`, { waitUntil: "load" });
    await Promise.all([page.waitForNavigation(), page.click("section.active article h3 a")]);
    expect(page.url()).toMatch(/\/status\/acme\/incidents\/spi_[0-9a-f]{28}$/);
    expect(await page.$eval("h1", (h) => h.textContent)).toBe("API errors");
    expect(await page.$eval("ol.updates li p", (p) => p.textContent)).toBe("Requests fail with 503.");
    await page.goto(`${s.url}/status/acme/history`, { waitUntil: "load" });
    expect(await page.$$eval("article.incident h3", (hs) => hs.map((h) => h.textContent))).toEqual(["API errors"]);
    await page.close();
  });
});
