import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreStatusPageId, httpMonitorId, openIncident } from "../../support/server";
import { useServer } from "../../support/use-server";
import { launchChromium } from "../../support/chromium";

/** The format the page's script uses, in the page's language and `timeZone`. */
const format = (lang: string, timeZone: string, iso: string) =>
  new Intl.DateTimeFormat(lang, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone,
  }).format(new Date(iso));
/** Spaces as ICU writes them (narrow and no-break ones) made plain, for comparing two ICU builds. */
const plain = (text: string) => text.replace(/[\s\u202f\u00a0]+/g, " ").trim();

/** Each moment's `<time>`: what it names and what it shows. */
async function times(page: Page): Promise<{ datetime: string; text: string; title: string }[]> {
  return await page.$$eval("time[datetime]", (ts) =>
    ts.map((t) => ({
      datetime: t.getAttribute("datetime") ?? "",
      text: t.textContent ?? "",
      title: t.getAttribute("title") ?? "",
    })),
  );
}

describe("times on the status page in the viewer's time zone", () => {
  const s = useServer();
  let browser: Browser;

  beforeAll(async () => {
    const monitor = await httpMonitorId(s, "api", "https://example.com/");
    const pageId = await coreStatusPageId(s, { slug: "zones", title: "Zones", locale: "de" }, monitor);
    await openIncident(s, pageId, {
      title: "Slow answers",
      message: "Looking into it.",
      components: { desk: "degraded" },
    });
    // A window of the page's monitor: its start and end are moments the page shows.
    const day = 86_400_000;
    expect(
      (
        await s.call("POST", "/api/v1/maintenance-windows", {
          name: "Upgrade",
          monitor_ids: [monitor],
          starts_at: new Date(Date.now() + day).toISOString(),
          ends_at: new Date(Date.now() + day + 3_600_000).toISOString(),
        })
      ).status,
    ).toBe(201);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The page in `timeZone`, with or without JavaScript, under the page's own policy; with the policy's complaints. */
  async function open(timeZone: string, js: boolean) {
    const page = await browser.newPage();
    const complaints: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) complaints.push(m.text());
    });
    await page.emulateTimezone(timeZone);
    await page.setJavaScriptEnabled(js);
    await page.goto(`${s.url}/status/zones`, { waitUntil: "load" });
    const found = await times(page);
    await page.close();
    return { found, complaints };
  }

  it("shows each moment in the viewer's zone in the page's language with JavaScript, and in UTC, named, without", async () => {
    const tokyo = await open("Asia/Tokyo", true);
    const newYork = await open("America/New_York", true);
    const off = await open("Asia/Tokyo", false);
    expect(tokyo.complaints).toEqual([]);
    expect(newYork.complaints).toEqual([]);
    // The incident's update, the window's start and end, the footer's "last updated".
    expect(off.found.length).toBeGreaterThanOrEqual(4);
    for (const t of off.found) {
      expect(t.text).toBe(`${t.datetime.slice(0, 16).replace("T", " ")} UTC`);
      expect(t.title).toBe("");
    }
    for (const [seen, zone] of [
      [tokyo, "Asia/Tokyo"],
      [newYork, "America/New_York"],
    ] as const) {
      expect(seen.found.map((t) => t.datetime)).toEqual(off.found.map((t) => t.datetime));
      for (const [i, t] of seen.found.entries()) {
        expect(plain(t.text)).toBe(plain(format("de", zone, t.datetime)));
        // The UTC text stays at hand, as the title.
        expect(t.title).toBe(off.found[i]?.text);
      }
    }
    // The same moments, other words: nine hours ahead of UTC against four or five behind.
    for (const [i, t] of tokyo.found.entries()) expect(t.text).not.toBe(newYork.found[i]?.text);
    expect(tokyo.found[0]?.text).toMatch(/GMT\+9|JST/);
    expect(newYork.found[0]?.text).toMatch(/EST|EDT|GMT-[45]/);
  });
});
