import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserLaunch } from "./protocol";
import { INSIDE, Sandbox, type SandboxCache, type SandboxLimits } from "./sandbox";
import type { BrowserTools } from "./tools";

/**
 * Node's compile cache of the Playwright packages, shared read-only by every run's sandbox so
 * that each runner does not compile them again. It is filled once per server process by a
 * warm-up sandbox that runs only the runner's own loading of Playwright: no script, no job, no
 * browser. It holds V8's compiled code of those public packages and nothing else: nothing of a
 * run, a monitor or the server. Runs get it read-only; a script can read it, not change it. It is
 * removed when the server closes (or, failing that, when its process exits).
 */

/** The warm-up's time limit: past it, runs go on without the cache. */
const WARM_TIMEOUT_MS = 30_000;

let cache: Promise<string | null> | undefined;

/**
 * The cache folder for sandboxes with `limits` (it is filled under the default limits: Node keys
 * it by its flags, so other limits find nothing in it), or null if the warm-up failed.
 */
export function compileCache(
  tools: BrowserTools,
  runner: string,
  limits: Omit<SandboxLimits, "timeoutMs">,
): Promise<string | null> {
  cache ??= warm(tools, runner, limits);
  return cache;
}

/** Removes the cache (the server's close); the next run fills a new one. */
export async function closeCompileCache(): Promise<void> {
  const dir = await cache;
  cache = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
}

async function warm(
  tools: BrowserTools,
  runner: string,
  limits: Omit<SandboxLimits, "timeoutMs">,
): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), "uptime-browser-cache-"));
  const job = await mkdtemp(join(tmpdir(), "uptime-browser-warm-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  try {
    const launch: BrowserLaunch = {
      chromium: tools.chromium,
      proxy_socket: `${INSIDE.job}/proxy.sock`,
      page_heap_mib: 256,
      compile_cache: INSIDE.compileCache,
      warm: true,
    };
    await writeFile(join(job, "launch.json"), JSON.stringify(launch));
    const writable: SandboxCache = { dir, writable: true };
    const exit = await new Sandbox(tools, runner, job, limits, writable).go(WARM_TIMEOUT_MS);
    return exit.killed === null && exit.code === 0 ? dir : null;
  } catch {
    return null;
  } finally {
    await rm(job, { recursive: true, force: true });
  }
}
