import { execFileSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, dirname, join } from "node:path";

/**
 * The programs a browser check needs on the machine that runs it: Chromium (found the way
 * scripts/ensure-chromium.mjs finds it: `CHROMIUM_PATH`, /usr/bin/chromium, `chromium` or
 * `chromium-browser` on PATH), bubblewrap (`bwrap`, the sandbox) and prlimit (util-linux), plus the
 * Playwright packages and the Node binary the runner uses. Found once, then cached.
 */
export interface BrowserTools {
  chromium: string;
  bwrap: string;
  prlimit: string;
  node: string;
  /** Folders of `playwright-core`, `playwright` and `@playwright/test`, by package name. */
  packages: Record<string, string>;
}

let cached: BrowserTools | string | undefined;

/** The tools, or why this machine cannot run browser checks (with the command that fixes it). */
export function browserTools(env: NodeJS.ProcessEnv = process.env): BrowserTools | string {
  cached ??= find(env);
  return cached;
}

function find(env: NodeJS.ProcessEnv): BrowserTools | string {
  const onPath = (names: string[], extra: string[] = []) => {
    for (const file of [...extra, ...(env.PATH ?? "").split(delimiter).flatMap((d) => names.map((n) => join(d, n)))]) {
      if (file && runnable(file)) return file;
    }
    return undefined;
  };
  const chromium = env.CHROMIUM_PATH ?? onPath(["chromium", "chromium-browser"], ["/usr/bin/chromium"]);
  if (!chromium || !runnable(chromium))
    return "Chromium was not found (CHROMIUM_PATH, /usr/bin/chromium, chromium on PATH); install it with: apt-get install -y chromium";
  const bwrap = onPath(["bwrap"], ["/usr/bin/bwrap"]);
  if (!bwrap)
    return "bubblewrap (bwrap), the browser checks' sandbox, was not found; install it with: apt-get install -y bubblewrap";
  const prlimit = onPath(["prlimit"], ["/usr/bin/prlimit"]);
  if (!prlimit) return "prlimit (util-linux) was not found; install it with: apt-get install -y util-linux";
  try {
    execFileSync(bwrap, ["--unshare-all", "--ro-bind", "/", "/", "true"], { stdio: "ignore", timeout: 10_000 });
  } catch {
    return `bubblewrap cannot create namespaces on this machine (${bwrap} --unshare-all failed): enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1)`;
  }
  const packages: Record<string, string> = {};
  for (const name of ["playwright-core", "playwright", "@playwright/test"]) {
    packages[name] = dirname(require.resolve(`${name}/package.json`));
  }
  return { chromium, bwrap, prlimit, node: process.execPath, packages };
}

function runnable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
