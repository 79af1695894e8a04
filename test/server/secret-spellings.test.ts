import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBrowserTools } from "../support/browser-tools";
import { newKey } from "../support/server";
import { type Served, serveProcess } from "./replicas/serve";

const html = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Each spelling of `secret` the target echoes back, by name: what a check may then print. */
function spelled(secret: string): Record<string, string> {
  return {
    json: JSON.stringify(secret).slice(1, -1),
    component: encodeURIComponent(secret),
    plus: encodeURIComponent(secret).replace(/%20/g, "+"),
    form: new URLSearchParams({ t: secret }).toString().slice(2),
    uri: encodeURI(secret),
    html: html(secret),
    basic: `Basic ${Buffer.from(`ada:${secret}`).toString("base64")}`,
  };
}

/**
 * A local target that echoes the secret it is sent (a POST body, or `?token=` of a page) in every
 * spelling: JSON fields for multi-step assertions, an HTML page for a browser script.
 */
async function startEcho(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/page") {
      const token = url.searchParams.get("token") ?? "";
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><title>echo</title><p id="v">${html(token)}</p><a href="/page?token=${encodeURIComponent(token)}">again</a>`,
      );
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "x-echo": encodeURIComponent(body) });
      res.end(JSON.stringify({ ...spelled(body), raw: body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Secrets with what changes between spellings: quotes, backslashes, spaces, `&`, `%`, `+`, non-ASCII. */
const SECRETS = [
  'Tr0ub4dor&3 "horse" \\ x',
  ...fc.sample(
    fc
      .array(fc.constantFrom(..."\"'\\ &%+<>=?#/:;éü€漢abcXYZ0189-_."), { minLength: 8, maxLength: 20 })
      .map((c) => `k${c.join("")}`),
    { numRuns: 4, seed: 47 },
  ),
];

/** Every spelling of every secret found in `text`, by secret and spelling name. */
function leaks(text: string, secrets: readonly string[]): string[] {
  return secrets.flatMap((s) =>
    Object.entries({ raw: s, ...spelled(s) })
      .filter(([, v]) => text.includes(v))
      .map(([name]) => `${JSON.stringify(s)} as ${name}`),
  );
}

describe("secrets in every spelling, through `uptime-server serve`", () => {
  let dir: string;
  let server: Served;
  let echo: Awaited<ReturnType<typeof startEcho>>;
  beforeAll(async () => {
    ensureBrowserTools();
    dir = mkdtempSync(join(tmpdir(), "uptime-spellings-"));
    echo = await startEcho();
    server = await serveProcess(join(dir, "u.db"), newKey(), ["--min-interval-sec", "1"]);
  }, 90_000);
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await echo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const multistep = (secret: string) => ({
    name: "spellings",
    type: "multistep",
    interval_sec: 3600,
    tags: ["spellings"],
    variables: { token: secret },
    steps: [
      {
        name: "echo",
        method: "POST",
        url: `${echo.url}/echo`,
        body: "{{token}}",
        // Each assertion fails and reports what it found: one spelling each.
        assertions: [
          ...Object.keys(spelled(secret)).map((k) => ({
            source: "json_body",
            property: `$.${k}`,
            comparison: "equals",
            target: "nope",
          })),
          { source: "headers", property: "x-echo", comparison: "equals", target: "nope" },
          { source: "text_body", comparison: "contains", target: "nope" },
        ],
      },
    ],
  });

  it("a multi-step dry run, a recorded trigger and the heartbeat it stored show no spelling of a variable", async () => {
    const ids: string[] = [];
    for (const secret of SECRETS) {
      const dry = await server.call("POST", "/api/v1/monitors/test", multistep(secret));
      expect(dry.status, dry.body).toBe(200);
      expect(JSON.parse(dry.body).data.status).toBe("down");
      expect(leaks(dry.body, SECRETS), "dry run").toEqual([]);
      const created = await server.call("POST", "/api/v1/monitors", multistep(secret));
      expect(created.status, created.body).toBe(201);
      ids.push(JSON.parse(created.body).data.id);
    }
    const trigger = await server.call("POST", "/api/v1/monitors/trigger", { monitor_ids: ids, record: true });
    expect(trigger.status, trigger.body).toBe(200);
    expect(JSON.parse(trigger.body).data.runs).toHaveLength(SECRETS.length);
    expect(leaks(trigger.body, SECRETS), "trigger").toEqual([]);
    for (const id of ids) {
      const beats = await server.call("GET", `/api/v1/monitors/${id}/heartbeats`);
      expect(JSON.parse(beats.body).data.length).toBeGreaterThan(0);
      expect(leaks(beats.body, SECRETS), "heartbeats").toEqual([]);
      const dryById = await server.call("POST", `/api/v1/monitors/${id}/test`);
      expect(leaks(dryById.body, SECRETS), "dry run by id").toEqual([]);
    }
    expect(leaks(server.log(), SECRETS), "server log").toEqual([]);
  }, 120_000);

  it("a browser script's error (Playwright's `Received: \"…\"`) and its page URL show no spelling of a variable", async () => {
    for (const secret of SECRETS.slice(0, 3)) {
      const script = [
        `await page.goto(${JSON.stringify(`${echo.url}/page?token=`)} + encodeURIComponent(process.env.TOKEN));`,
        `await expect(page.locator("#v")).toHaveText("nope", { timeout: 1000 });`,
      ].join("\n");
      const res = await server.call("POST", "/api/v1/monitors/test", {
        name: "b",
        type: "browser",
        interval_sec: 60,
        timeout_sec: 20,
        script,
        variables: { TOKEN: secret },
      });
      expect(res.status, res.body).toBe(200);
      const data = JSON.parse(res.body).data;
      expect(data.status).toBe("down");
      expect(data.error).toContain("Received");
      expect(data.browser.url).toContain("token=****");
      expect(leaks(res.body, SECRETS), "browser dry run").toEqual([]);
    }
    expect(leaks(server.log(), SECRETS), "server log").toEqual([]);
  }, 120_000);
});
