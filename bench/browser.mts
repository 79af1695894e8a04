// Browser monitors: runs per minute of the sandboxed runner against a local login site, the peak
// memory (PSS) of one run's sandbox, and how many browser monitors one machine holds at a 5-minute
// interval with the p99 of the start lag (due time to the run's turn) under 5 s. The floor, in
// the same run: the same script's journey with Playwright and Chromium launched directly, no sandbox.
//
// CPU per run: `BENCH_CPU=floor` or `BENCH_CPU=sandboxed` runs only `BENCH_RUNS` runs of that kind,
// one at a time, and exits; run it under `perf stat -e task-clock`, which counts every process of
// the tree however it ends (the sandbox's own processes are reaped inside its PID namespace, out of
// this process's sight). CPU per run = (task-clock at BENCH_RUNS=7 - at BENCH_RUNS=1) / 6: the
// difference leaves out Node's and the login site's start, the compile cache's warm-up and the
// first run's own start.
import { copyFileSync, mkdtempSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "@playwright/test";
import { chromium } from "playwright-core";
import { browserConcurrency, closeBrowserSpare, runBrowserCheck } from "../dist/server/checker/browser/run.js";
import { browserTools } from "../dist/server/checker/browser/tools.js";

// Workaround: Node loads a .ts file of this CommonJS package as CommonJS, and the tests' login
// site is written as an ES module; a copy named .mts loads as one. It can go when test/ is ESM.
const copy = join(mkdtempSync(join(tmpdir(), "bench-browser-")), "login-site.mts");
copyFileSync(join(import.meta.dirname, "../test/support/login-site.ts"), copy);
const { loginScript, startLoginSite } = (await import(copy)) as typeof import("../test/support/login-site.ts");

const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const lagSeconds = Number(process.env.BENCH_LAG_SECONDS ?? 120);
const interval = 300;
const site = await startLoginSite();
const script = loginScript(site, "Welcome back, Ada");
const ctx = { allowPrivate: true } as never;
const env = { PASSWORD: site.password };
const tools = browserTools();
if (typeof tools === "string") throw new Error(tools);
const mib = (b: number) => (b / 1048576).toFixed(0);

/**
 * The floor: launch, the script's journey step for step (the same actions and the same `expect`
 * assertions), close, with no sandbox and no proxy.
 */
async function floorMs(runs: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const browser = await chromium.launch({
      executablePath: (tools as { chromium: string }).chromium,
      chromiumSandbox: false,
    });
    const page = await browser.newPage();
    await page.goto(site.url);
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Password").fill(site.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(page.getByText("Welcome back, Ada")).toBeVisible({ timeout: 2000 });
    await browser.close();
  }
  return (performance.now() - started) / runs;
}

/** Runs back to back, `cap` at a time, for `seconds`: runs per minute and each run's peak memory. */
async function throughput(cap: number) {
  await browserConcurrency(cap);
  const peaks: number[] = [];
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: cap }, async () => {
      while (performance.now() < until) {
        const run = await runBrowserCheck(script, 20, ctx, { env });
        if (!run.up || run.killed) failed++;
        peaks.push(run.peak_memory_bytes);
      }
    }),
  );
  const minutes = (performance.now() - started) / 60_000;
  return {
    perMinute: peaks.length / minutes,
    failed,
    peakMax: Math.max(...peaks),
    peakMean: peaks.reduce((a, b) => a + b, 0) / peaks.length,
  };
}

/** Monitors `count` due evenly over the 5-minute interval, for `lagSeconds`: the p99 start lag. */
async function lagAt(count: number, cap: number): Promise<{ p50: number; p99: number; runs: number }> {
  await browserConcurrency(cap);
  const gapMs = (interval * 1000) / count;
  const lags: number[] = [];
  const runs: Promise<unknown>[] = [];
  const t0 = performance.now();
  for (let i = 0; i * gapMs < lagSeconds * 1000; i++) {
    const due = t0 + i * gapMs;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    runs.push(runBrowserCheck(script, 20, ctx, { env, onStart: () => lags.push(performance.now() - due) }));
  }
  await Promise.all(runs);
  const sorted = lags.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), runs: sorted.length };
}

const cpuMode = process.env.BENCH_CPU;
if (cpuMode !== undefined) {
  if (cpuMode !== "floor" && cpuMode !== "sandboxed") throw new Error("BENCH_CPU: floor or sandboxed");
  // No spare: it would start one sandbox more than the runs use.
  process.env.UPTIME_BROWSER_SPARE = "0";
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    if (cpuMode === "floor") await floorMs(1);
    else {
      const run = await runBrowserCheck(script, 20, ctx, { env });
      if (!run.up || run.killed) throw new Error(`a run failed: ${run.error}`);
    }
  }
  // This process's own CPU (no child's): for the sandboxed runs, the server's side of them (the
  // watchdog, the policy proxy, the job's files); for the floor, Playwright's client side.
  const own = process.cpuUsage();
  console.log(
    `${cpuMode}: ${runs} runs, ${((performance.now() - started) / Math.max(1, runs)).toFixed(0)} ms each; this process's own CPU: ${((own.user + own.system) / 1000).toFixed(0)} ms; load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await site.close();
  process.exit(0);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(`machine: ${cpus().length} cores; Chromium ${tools.chromium}; load average (1, 5, 15 min): ${load()}`);
// The floor before and after the sandboxed runs, the mean of both: the machine's load moves meanwhile.
const floorBefore = await floorMs(5);
console.log(
  `floor (no sandbox, no proxy): ${floorBefore.toFixed(0)} ms per run = ${(60_000 / floorBefore).toFixed(1)} runs/min, one at a time`,
);
let best = { cap: 1, perMinute: 0 };
for (const cap of [1, 2, 3]) {
  const r = await throughput(cap);
  console.log(
    `sandboxed, ${cap} at a time: ${r.perMinute.toFixed(1)} runs/min (${r.failed} failed); peak memory per run: max ${mib(r.peakMax)} MiB, mean ${mib(r.peakMean)} MiB`,
  );
  if (r.perMinute > best.perMinute) best = { cap, perMinute: r.perMinute };
}
const floorAfter = await floorMs(5);
const floor = (floorBefore + floorAfter) / 2;
console.log(
  `floor again: ${floorAfter.toFixed(0)} ms per run = ${(60_000 / floorAfter).toFixed(1)} runs/min; mean ${(60_000 / floor).toFixed(1)} runs/min`,
);
console.log(
  `best: ${best.perMinute.toFixed(1)} runs/min (${best.cap} at a time) = ${(best.perMinute / (60_000 / floor)).toFixed(2)}x of the floor (goal >= 0.8x); load average: ${load()}`,
);
// Capacity: start at 80% of the throughput over an interval, back off while the p99 lag is 5 s or more.
let count = Math.floor(best.perMinute * (interval / 60) * 0.8);
// BENCH_LAG_SECONDS=0 skips the capacity part.
for (let attempt = 0; attempt < (lagSeconds > 0 ? 4 : 0); attempt++) {
  const r = await lagAt(count, best.cap);
  console.log(
    `${count} monitors every ${interval} s (${best.cap} at a time, ${r.runs} runs over ${lagSeconds} s): start lag p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms`,
  );
  if (r.p99 < 5_000) {
    console.log(`capacity: ${count} browser monitors at a 5-minute interval with the p99 start lag under 5 s`);
    break;
  }
  count = Math.floor(count * 0.8);
}
await site.close();
await closeBrowserSpare();
