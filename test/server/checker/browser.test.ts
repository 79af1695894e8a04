import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBrowserTools } from "../../support/browser-tools";
import { loginScript, type LoginSite, startLoginSite } from "../../support/login-site";
import { startServer, type TestServer } from "../../support/server";
import { eventually } from "../../support/target";

/** Browser monitors against a local site with a login form, through the dry run and the checker. */
describe("browser monitors", () => {
  let s: TestServer;
  let site: LoginSite;
  beforeAll(async () => {
    ensureBrowserTools();
    s = await startServer({ checker: true, minIntervalSec: 1 });
    site = await startLoginSite();
  });
  afterAll(async () => {
    await s?.close();
    await site?.close();
  });
  const body = (script: string, extra: Record<string, unknown> = {}) => ({
    name: "b",
    type: "browser",
    interval_sec: 30,
    timeout_sec: 20,
    script,
    variables: { PASSWORD: site.password },
    ...extra,
  });

  it("a Checkly-style check that logs in and finds the dashboard's text is up, with its step timed", async () => {
    const res = await s.call("POST", "/api/v1/monitors/test", body(loginScript(site, "Welcome back, Ada")));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "up",
      error: null,
      browser: { failing_line: null, screenshot: false, killed: null, refused: [] },
    });
    expect(res.body.data.browser.steps).toEqual([
      expect.objectContaining({ name: "log in and see the dashboard", error: null }),
    ]);
    expect(res.body.data.browser.url).toBe(`${site.url}/dashboard`);
  });

  it("a stored check of a text that is not there fails with its line, the console error and a PNG readable through the API", async () => {
    const created = await s.call(
      "POST",
      "/api/v1/monitors",
      body(loginScript(site, "Welcome back, Grace"), { interval_sec: 15, timeout_sec: 10 }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    const hb = await eventually(async () => {
      const list = await s.call("GET", `/api/v1/monitors/${id}/heartbeats`);
      return list.body.data.find((h: { status: string }) => h.status === "down");
    }, 60_000);
    expect(hb.error_class).toBe("assertion");
    expect(hb.error).toBe(
      `expect(locator).toBeVisible() failed; Locator: getByText('Welcome back, Grace'); Expected: visible; Timeout: 2000ms; Error: element(s) not found (script line 9: await expect(page.getByText("Welcome back, Grace")).toBeVisible({ timeout: 2000 });)`,
    );
    expect(hb.browser.failing_line).toEqual({
      line: 9,
      text: 'await expect(page.getByText("Welcome back, Grace")).toBeVisible({ timeout: 2000 });',
    });
    expect(hb.browser.console_errors).toEqual(["orders widget failed to load"]);
    expect(hb.browser.screenshot).toBe(true);
    expect(JSON.stringify(hb)).not.toContain(site.password);
    const png = await fetch(`${s.url}/api/v1/monitors/${id}/heartbeats/${hb.id}/screenshot`, {
      headers: { authorization: `Bearer ${s.key}` },
    });
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    // IHDR: the page's viewport, Playwright's default 1280 × 720.
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1280, 720]);
    await s.call("DELETE", `/api/v1/monitors/${id}`);
  });

  it("a script that loads @playwright/test by import() runs, its failing line kept", async () => {
    const script = `const { expect: check } = await import("@playwright/test");\nawait page.goto(${JSON.stringify(site.url)});\nawait check(page.getByText("No such text")).toBeVisible({ timeout: 500 });`;
    const res = await s.call("POST", "/api/v1/monitors/test", body(script));
    expect(res.body.data, JSON.stringify(res.body.data)).toMatchObject({ status: "down", error_class: "assertion" });
    expect(res.body.data.browser.failing_line).toEqual({
      line: 3,
      text: 'await check(page.getByText("No such text")).toBeVisible({ timeout: 500 });',
    });
  });

  it("the monitor's variables are masked in what a run reports", async () => {
    const script = `await page.goto(${JSON.stringify(site.url)});\nthrow new Error("the password is " + process.env.PASSWORD);`;
    const res = await s.call("POST", "/api/v1/monitors/test", body(script));
    expect(res.body.data).toMatchObject({ status: "down", error_class: "assertion" });
    expect(res.body.data.error).toContain("the password is ****");
    expect(JSON.stringify(res.body)).not.toContain(site.password);
  });

  it("a script that does not parse, or loads another module, is refused with the field and the line", async () => {
    const bad = await s.call("POST", "/api/v1/monitors", body("await page.goto('x'\nfoo("));
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      expect.objectContaining({
        field: "script",
        message: expect.stringMatching(/^does not parse as JavaScript: .* at line 2/),
      }),
    ]);
    const other = await s.call("POST", "/api/v1/monitors", body('import fs from "node:fs";\nawait page.goto("x");'));
    expect(other.body.error.details).toEqual([
      expect.objectContaining({ field: "script", message: 'may import only @playwright/test, not "node:fs" (line 1)' }),
    ]);
    const none = await s.call("POST", "/api/v1/monitors", { name: "b", type: "browser", interval_sec: 30 });
    expect(none.body.error.details).toEqual([
      expect.objectContaining({ field: "script", message: "is required for browser monitors (the Playwright script)" }),
    ]);
  });
});
