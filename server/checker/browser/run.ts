import { constants } from "node:fs";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { LimitFunction } from "p-limit" with { "resolution-mode": "import" };
import { browserProgram, SCRIPT_FILE } from "../../../api/browser-script";
import type { ProbeContext } from "../probe";
import { closeCompileCache, compileCache } from "./compile-cache";
import { PolicyProxy } from "./policy-proxy";
import type { BrowserJob, BrowserLaunch, BrowserRunResult } from "./protocol";
import { INSIDE, Sandbox, type SandboxLimits } from "./sandbox";
import { type BrowserTools, browserTools } from "./tools";

/** Screenshots above this size are not kept (a full-HD PNG of a busy page is well under it). */
export const SCREENSHOT_LIMIT_BYTES = 1_048_576;

/** What the sandbox gets beyond the monitor's timeout, to start and close the browser. */
const BROWSER_START_MS = 5_000;

/** The limits every run gets unless a caller (a test, the benchmark) says otherwise. */
export const DEFAULT_LIMITS: Omit<SandboxLimits, "timeoutMs"> = {
  memoryBytes: 1024 * 1048576,
  processes: 64,
  runnerHeapMib: 256,
};

/** How a browser check went: the runner's result, the sandbox's verdict and the evidence. */
export interface BrowserRun extends BrowserRunResult {
  /** The screenshot at the failure (PNG), if one was taken and within the size limit. */
  png: Buffer | null;
  /** Destinations the outbound policy refused. */
  refused: string[];
  /** Why the sandbox was killed, or null. */
  killed: string | null;
  peak_memory_bytes: number;
  peak_processes: number;
}

/** Options of one run. */
export interface RunOptions {
  /** Whether certificate errors fail the run (default true). */
  verifyTls?: boolean;
  /** The script's `process.env` (the monitor's variables). */
  env?: Record<string, string>;
  /** Limits other than the defaults (tests, the benchmark). */
  limits?: Partial<SandboxLimits>;
  /** Called when the run gets its turn under the concurrency cap (the benchmark measures the wait). */
  onStart?: () => void;
}

/** Runs at once in this process at most (`UPTIME_BROWSER_CONCURRENCY`, default half the cores, at least 1). */
let limiter: Promise<LimitFunction> | undefined;
const defaultCap = () => Math.max(1, Number(process.env.UPTIME_BROWSER_CONCURRENCY) || Math.floor(cpus().length / 2));
// p-limit is an ES module: loaded on the first run.
const limit = () => (limiter ??= import("p-limit").then(({ default: pLimit }) => pLimit(defaultCap())));

/** Sets the concurrency cap of this process's browser runs; returns it. */
export async function browserConcurrency(cap?: number): Promise<number> {
  const l = await limit();
  if (cap !== undefined) l.concurrency = Math.max(1, cap);
  return l.concurrency;
}

/** Whether this machine can run browser checks; the reason when not. */
export function browserCapability(): { ok: true } | { ok: false; reason: string } {
  const tools = browserTools();
  return typeof tools === "string" ? { ok: false, reason: tools } : { ok: true };
}

/** Runs `script` once in the sandbox, within `timeoutSec`, under `ctx`'s outbound policy. */
export function runBrowserCheck(
  script: string,
  timeoutSec: number,
  ctx: ProbeContext,
  options: RunOptions = {},
): Promise<BrowserRun> {
  return limit().then((l) => l(() => runOnce(script, timeoutSec, ctx, options)));
}

async function runOnce(
  script: string,
  timeoutSec: number,
  ctx: ProbeContext,
  options: RunOptions,
): Promise<BrowserRun> {
  options.onStart?.();
  const tools = browserTools();
  if (typeof tools === "string")
    throw Object.assign(new Error(`browser checks cannot run here: ${tools}`), { code: "ERR_BROWSER_UNAVAILABLE" });
  const program = browserProgram(script);
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  // A spare started ahead serves runs with the default limits; it is then replaced for the next run.
  const { sandbox, dir } =
    (options.limits === undefined ? takeSpare(tools) : undefined) ?? (await startSandbox(tools, limits));
  const proxy = new PolicyProxy(ctx);
  try {
    const timeoutMs = timeoutSec * 1000;
    const job: BrowserJob = {
      script_file: SCRIPT_FILE,
      timeout_ms: timeoutMs,
      // Room after the script's time for the screenshot and the browser's close.
      script_budget_ms: Math.max(500, timeoutMs - 2_000),
      screenshot_limit_bytes: SCREENSHOT_LIMIT_BYTES,
      verify_tls: options.verifyTls ?? true,
      env: options.env ?? {},
    };
    await writeFile(join(dir, "job.json"), JSON.stringify(job));
    await writeFile(join(dir, SCRIPT_FILE), program);
    await proxy.listen(join(dir, "proxy.sock"));
    // The browser's start is not the script's time: the sandbox gets a few seconds more.
    const exit = await sandbox.go(timeoutMs + BROWSER_START_MS);
    // V8 ends a runner past its heap limit itself: that is the memory limit too.
    const heap = /heap limit|heap out of memory/i.test(exit.stderr)
      ? `killed at the memory limit (the script's heap of ${limits.runnerHeapMib} MiB)`
      : null;
    const killed = exit.killed ?? heap;
    const result = killed ? undefined : await readResult(dir);
    const png = result?.screenshot ? await readOwn(join(dir, "screenshot.png"), SCREENSHOT_LIMIT_BYTES) : null;
    const base =
      result ??
      killedResult(
        killed ??
          `the runner ended without a result (exit code ${exit.code}): ${exit.stderr.split("\n").slice(-3).join(" ")}`,
      );
    return {
      ...base,
      // The sandbox's own files are its to write: only a real PNG within the limit is kept.
      png: png && png.length <= SCREENSHOT_LIMIT_BYTES && png.subarray(0, 8).equals(PNG_SIGNATURE) ? png : null,
      refused: proxy.refused,
      killed,
      peak_memory_bytes: exit.peakMemoryBytes,
      peak_processes: exit.peakProcesses,
    };
  } finally {
    sandbox.kill("the run ended");
    await proxy.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A sandbox started in a job folder of its own, its runner loading Playwright and the browser. */
async function startSandbox(tools: BrowserTools, limits: Omit<SandboxLimits, "timeoutMs">): Promise<Started> {
  // Node's compile cache of Playwright, filled once by a warm-up and given read-only to every run.
  const cache = compileCacheWanted() ? await compileCache(tools, runnerFile(), DEFAULT_LIMITS) : null;
  const dir = await mkdtemp(join(tmpdir(), "uptime-browser-"));
  const launch: BrowserLaunch = {
    chromium: tools.chromium,
    proxy_socket: `${INSIDE.job}/proxy.sock`,
    page_heap_mib: 256,
    compile_cache: cache ? INSIDE.compileCache : null,
    warm: false,
  };
  await writeFile(join(dir, "launch.json"), JSON.stringify(launch));
  return {
    sandbox: new Sandbox(tools, runnerFile(), dir, limits, cache ? { dir: cache, writable: false } : null),
    dir,
  };
}

/** `UPTIME_BROWSER_COMPILE_CACHE=0` turns the shared compile cache off (each runner compiles Playwright itself). */
const compileCacheWanted = () => process.env.UPTIME_BROWSER_COMPILE_CACHE !== "0";

/**
 * The spare: one sandbox started ahead, so that a run does not wait for Node, Playwright and
 * Chromium to start. It is a whole sandbox of its own, used by one run only, then ended; nothing of
 * one run (its browser, profile, cache, files, processes) is there for another. Kept
 * `UPTIME_BROWSER_SPARE` (default 1; 0: none) at most, and ended after `SPARE_IDLE_MS` unused.
 */
interface Started {
  sandbox: Sandbox;
  dir: string;
}
interface Spare {
  starting: Promise<Started>;
  started?: Started;
}
let spare: Spare | undefined;
let spareIdle: NodeJS.Timeout | undefined;
const SPARE_IDLE_MS = 10 * 60_000;
const spareWanted = () => process.env.UPTIME_BROWSER_SPARE !== "0";

/** The spare if it is there and still waiting; starts the next one either way. */
function takeSpare(tools: BrowserTools): Started | undefined {
  const taken = spare;
  spare = undefined;
  if (spareWanted()) {
    const next: Spare = { starting: startSandbox(tools, DEFAULT_LIMITS) };
    next.starting.then(
      (s) => void (next.started = s),
      () => undefined,
    );
    spare = next;
    clearTimeout(spareIdle);
    spareIdle = setTimeout(() => void closeBrowserSpare(), SPARE_IDLE_MS).unref();
  }
  if (taken?.started?.sandbox.ready) return taken.started;
  // Its folder not made yet, or its sandbox ended on its own: the run starts one of its own.
  if (taken) void discard(taken);
  return undefined;
}

async function discard(s: Spare): Promise<void> {
  const started = await s.starting.catch(() => undefined);
  if (!started) return;
  started.sandbox.kill("not used");
  await started.sandbox.exited;
  await rm(started.dir, { recursive: true, force: true });
}

/** Ends the spare sandbox, if one is waiting, and removes the compile cache (the server's close; tests). */
export async function closeBrowserSpare(): Promise<void> {
  const s = spare;
  spare = undefined;
  clearTimeout(spareIdle);
  if (s) await discard(s);
  await closeCompileCache();
}

/** The compiled runner (tests run this module from source; the runner always runs compiled). */
function runnerFile(): string {
  return __filename.endsWith(".ts")
    ? join(__dirname, "../../../dist/server/checker/browser/runner.js")
    : join(__dirname, "runner.js");
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The largest result the runner may leave (its texts are capped far below). */
const RESULT_LIMIT_BYTES = 512 * 1024;

/**
 * A file the sandbox wrote, read only if it is a regular file (not a link the script put there to
 * make the server read one of its own files) of at most `limit` bytes; null otherwise.
 */
async function readOwn(file: string, limit: number): Promise<Buffer | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!handle) return null;
  try {
    const info = await handle.stat();
    return info.isFile() && info.size <= limit ? await handle.readFile() : null;
  } finally {
    await handle.close();
  }
}

async function readResult(dir: string): Promise<BrowserRunResult | undefined> {
  const raw = await readOwn(join(dir, "result.json"), RESULT_LIMIT_BYTES);
  try {
    return raw ? (JSON.parse(raw.toString("utf8")) as BrowserRunResult) : undefined;
  } catch {
    return undefined;
  }
}

function killedResult(why: string): BrowserRunResult {
  return {
    up: false,
    error: why,
    timed_out: why.includes("timeout"),
    failing_line: null,
    console_errors: [],
    steps: [],
    total_ms: 0,
    screenshot: false,
    url: null,
  };
}
