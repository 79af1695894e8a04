/**
 * The untrusted side of a browser check: runs inside the sandbox (see sandbox.ts), never in the
 * server. It loads Playwright and launches Chromium with its proxy pointed at a local forwarder to
 * the server's policy proxy (the sandbox has no other network) before it has a job; when the server
 * says `go` on its standard input, it reads the job, runs the script once, writes what happened to
 * `result.json` (and, on failure, `screenshot.png`) in its job folder, and exits.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { enableCompileCache, flushCompileCache } from "node:module";
import { connect, createServer } from "node:net";
import { stripVTControlCharacters } from "node:util";
import { Script } from "node:vm";
import type { Browser } from "playwright-core";
import type { BrowserJob, BrowserLaunch, BrowserRunResult } from "./protocol";

const JOB_DIR = process.cwd();
const launch = JSON.parse(readFileSync(`${JOB_DIR}/launch.json`, "utf8")) as BrowserLaunch;
// Before Playwright loads: its modules' compiled code comes from the cache the warm-up filled.
if (launch.compile_cache) enableCompileCache(launch.compile_cache);
/** Read at `go`. */
let job: BrowserJob;
let started = performance.now();
const consoleErrors: string[] = [];
const steps: { name: string; duration_ms: number; error: string | null }[] = [];
const ms = () => Math.round(performance.now() - started);

/** The run's result: how it ended, with what the page and the steps recorded so far. */
function result(
  end: Pick<BrowserRunResult, "up" | "error" | "url"> &
    Partial<Pick<BrowserRunResult, "timed_out" | "failing_line" | "screenshot">>,
): BrowserRunResult {
  return {
    timed_out: false,
    failing_line: null,
    screenshot: false,
    ...end,
    console_errors: consoleErrors,
    steps,
    total_ms: ms(),
  };
}

/** Connections from Chromium to 127.0.0.1 here, carried to the policy proxy's socket. */
function forwarder(): Promise<number> {
  const server = createServer((client) => {
    const upstream = connect(launch.proxy_socket);
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
}

/** Playwright Test's `test`, enough of it for browser checks: tests, steps and describe blocks. */
function testApi(tests: { name: string; fn: (f: object) => Promise<void> }[]) {
  const test = (name: string, fn: (f: object) => Promise<void>) => void tests.push({ name, fn });
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    try {
      const value = await fn();
      steps.push({ name, duration_ms: Math.round(performance.now() - at), error: null });
      return value;
    } catch (err) {
      steps.push({
        name,
        duration_ms: Math.round(performance.now() - at),
        error: (err as Error).message ?? String(err),
      });
      throw err;
    }
  };
  const noop = () => undefined;
  return Object.assign(test, {
    step,
    describe: (_name: string, fn: () => void) => fn(),
    setTimeout: noop,
    slow: noop,
    use: noop,
    info: () => ({ annotations: [] }),
  });
}

/** The script's line that failed: the first frame of the script in the error's stack. */
function failingLine(err: unknown, source: string): { line: number; text: string } | null {
  const stack = String((err as Error)?.stack ?? "");
  const at = new RegExp(`${job.script_file.replace(".", "\\.")}:(\\d+):\\d+`).exec(stack);
  if (!at) return null;
  const line = Number(at[1]);
  return { line, text: (source.split("\n")[line - 1] ?? "").trim() };
}

/** The browser, started before the job (the job changes nothing of how it starts). */
async function startBrowser(): Promise<Browser> {
  const { chromium } = require("playwright-core") as typeof import("playwright-core");
  const port = await forwarder();
  return chromium.launch({
    executablePath: launch.chromium,
    chromiumSandbox: false,
    // Loopback too goes through the proxy: the policy decides whether it is reachable.
    args: [
      `--proxy-server=http://127.0.0.1:${port}`,
      "--proxy-bypass-list=<-loopback>",
      `--js-flags=--max-old-space-size=${launch.page_heap_mib}`,
    ],
  });
}

/** Resolves when the server says the job is written (a line on standard input); exits if it closes without. */
function jobGiven(): Promise<void> {
  return new Promise((resolve) => {
    let seen = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (d: string) => {
      seen += d;
      if (seen.includes("\n")) resolve();
    });
    process.stdin.on("end", () => {
      if (!seen.includes("\n")) process.exit(0);
    });
  });
}

/** What `ps` shows of a runner still waiting for its job (a spare), then of one running it. */
const TITLE = { waiting: "uptime-browser-spare", running: "/sandbox/node /sandbox/runner.js" };

/** The warm-up: loads what a run loads, writes the compile cache and exits; no browser, no job. */
function warm(): never {
  require("playwright-core");
  require("@playwright/test");
  flushCompileCache();
  process.exit(0);
}

async function main(): Promise<BrowserRunResult> {
  if (launch.warm) warm();
  process.title = TITLE.waiting;
  const playwrightTest = require("@playwright/test") as typeof import("@playwright/test");
  const starting = startBrowser();
  // A launch failure is the run's, reported once the job is there.
  starting.catch(() => undefined);
  await jobGiven();
  process.title = TITLE.running;
  job = JSON.parse(readFileSync(`${JOB_DIR}/job.json`, "utf8")) as BrowserJob;
  started = performance.now();
  Object.assign(process.env, job.env);
  const browser = await starting;
  const context = await browser.newContext({ ignoreHTTPSErrors: !job.verify_tls });
  const page = await context.newPage();
  page.on("console", (m) => void (m.type() === "error" && consoleErrors.push(m.text().slice(0, 500))));
  page.on("pageerror", (e) => void consoleErrors.push(`uncaught: ${e.message}`.slice(0, 500)));
  const source = readFileSync(`${JOB_DIR}/${job.script_file}`, "utf8");
  const tests: { name: string; fn: (f: object) => Promise<void> }[] = [];
  const test = testApi(tests);
  const pw = { ...playwrightTest, test, expect: playwrightTest.expect };
  const requireShim = (name: string) => {
    if (name === "@playwright/test") return pw;
    throw new Error(`may import only @playwright/test, not ${name}`);
  };
  const wrapped = `(async (page, require, __pw) => { const { test, expect } = __pw; {\n${source}\n}})`;
  const run = new Script(wrapped, { filename: job.script_file, lineOffset: -1 }).runInThisContext() as (
    p: unknown,
    r: unknown,
    pw: unknown,
  ) => Promise<void>;
  const deadline = new Promise<never>((_, reject) => {
    setTimeout(
      () => reject(Object.assign(new Error(`timed out after ${job.timeout_ms / 1000} s`), { name: "TimeoutError" })),
      job.script_budget_ms,
    ).unref();
  });
  try {
    await Promise.race([
      (async () => {
        await run(page, requireShim, pw);
        for (const t of tests)
          await test.step(t.name, () =>
            t.fn({ page, context, browser, request: context.request, browserName: "chromium" }),
          );
      })(),
      deadline,
    ]);
    return result({ up: true, error: null, url: page.url() });
  } catch (err) {
    const shot = await page.screenshot({ type: "png", timeout: 3_000 }).catch(() => undefined);
    if (shot && shot.length <= job.screenshot_limit_bytes) writeFileSync(`${JOB_DIR}/screenshot.png`, shot);
    const message = stripVTControlCharacters(String((err as Error)?.message ?? err));
    const timedOut = (err as Error)?.name === "TimeoutError";
    return result({
      up: false,
      error: message.slice(0, 2000),
      timed_out: timedOut,
      failing_line: failingLine(err, source),
      screenshot: Boolean(shot && shot.length <= job.screenshot_limit_bytes),
      url: page.url(),
    });
  }
  // No close: the browser ends with the sandbox once the result is written (Playwright's exit
  // handler kills it, and its PID namespace ends with the runner), so a graceful close's work
  // (Chromium saving its profile, which nothing reads again) is not paid for.
}

main().then(
  (result) => {
    writeFileSync(`${JOB_DIR}/result.json`, JSON.stringify(result));
    process.exit(0);
  },
  (err) => {
    writeFileSync(
      `${JOB_DIR}/result.json`,
      JSON.stringify(
        result({
          up: false,
          error:
            `the browser did not start: ${(err as Error).message}${(err as { resource?: string }).resource ? ` (${(err as { resource?: string }).resource})` : ""}`.slice(
              0,
              2000,
            ),
          url: null,
        }),
      ),
    );
    process.exit(0);
  },
);
