import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { startServer, type TestServer } from "../support/server";

/**
 * A browser script may load only `@playwright/test`, whichever way it loads a module: `import`,
 * `require()` or `import()`. `pulumi preview` (the provider's check) and the server (create, PATCH,
 * dry run) refuse the same scripts with the same words, naming the line, instead of accepting a
 * script that then fails every run.
 */
describe("browser scripts: one rule for import, require() and import()", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };
  beforeAll(async () => {
    s = await startServer();
    connection = { baseUrl: s.url, apiKey: s.key };
  });
  afterAll(async () => {
    await s?.close();
  });

  const body = (script: string) => ({ name: "shop", type: "browser", interval_sec: 60, timeout_sec: 20, script });
  const preview = async (script: string) =>
    (
      await runtime.check(
        "Monitor",
        {},
        { name: "shop", type: "browser", intervalSec: 60, timeoutSec: 20, script, connection },
      )
    ).failures;

  it.each([
    [
      "import from",
      'import fs from "node:fs";\nawait page.goto("https://example.com/");',
      'may import only @playwright/test, not "node:fs" (line 1)',
    ],
    [
      "require()",
      'await page.goto("https://example.com/");\nconst fs = require("node:fs");',
      'may import only @playwright/test, not "node:fs" (line 2)',
    ],
    [
      "require() of crypto in a test",
      'const { test } = require("@playwright/test");\nconst crypto = require("crypto");\ntest("t", async ({ page }) => { await page.goto("https://example.com/" + crypto.randomUUID()); });',
      'may import only @playwright/test, not "crypto" (line 2); the global `crypto` (Web Crypto: randomUUID, getRandomValues, subtle) needs no import',
    ],
    [
      "import()",
      'const { test } = require("@playwright/test");\ntest("t", async ({ page }) => {\n  const { readFileSync } = await import("node:fs");\n});',
      'may import only @playwright/test, not "node:fs" (line 3)',
    ],
    [
      "a computed name",
      'const name = "fs";\nrequire(name);',
      "require() must name its module as a string, and may load only @playwright/test (line 2)",
    ],
  ])(
    "%s of another module is refused at preview, create, PATCH and dry run, naming the line",
    async (_how, script, message) => {
      expect(await preview(script)).toEqual([{ property: "script", reason: `script: ${message}` }]);
      const created = await s.call("POST", "/api/v1/monitors", body(script));
      expect(created.status).toBe(422);
      expect(created.body.error.details).toEqual([{ field: "script", message }]);
      const dry = await s.call("POST", "/api/v1/monitors/test", body(script));
      expect(dry.status).toBe(422);
      expect(dry.body.error.details).toEqual([{ field: "script", message }]);
      const ok = await s.call("POST", "/api/v1/monitors", body('await page.goto("https://example.com/");'));
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      const patched = await s.call("PATCH", `/api/v1/monitors/${ok.body.data.id}`, { script });
      expect(patched.status).toBe(422);
      expect(patched.body.error.details).toEqual([{ field: "script", message }]);
      await s.call("DELETE", `/api/v1/monitors/${ok.body.data.id}`);
    },
  );

  it("@playwright/test by any of the three is accepted", async () => {
    for (const script of [
      'import { test, expect } from "@playwright/test";\ntest("t", async ({ page }) => { await page.goto("https://example.com/"); });',
      'const { test, expect } = require("@playwright/test");\ntest("t", async ({ page }) => { await page.goto("https://example.com/"); });',
      'const { expect: check } = await import("@playwright/test");\nawait page.goto("https://example.com/");\nawait check(page).toHaveTitle(/Example/);',
    ]) {
      expect(await preview(script)).toEqual([]);
      const created = await s.call("POST", "/api/v1/monitors", body(script));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      await s.call("DELETE", `/api/v1/monitors/${created.body.data.id}`);
    }
  });
});
