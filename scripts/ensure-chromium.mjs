#!/usr/bin/env node
// Ensures a Chromium for the status page's browser test, the way ensure-pulumi.mjs ensures the
// Pulumi CLI: `CHROMIUM_PATH` when set, else Debian's /usr/bin/chromium, else `chromium` or
// `chromium-browser` on PATH. When none is there and we run as root on Debian, installs the
// `chromium` package with apt-get (puppeteer's own browser download needs a host that the
// registries-only networks we test on do not reach). Otherwise fails with the exact command.
// Prints the browser's path as its last line; `--json` prints a JSON object instead.
import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findOrAptInstall } from "./apt-install.mjs";

const SYSTEM_PATHS = ["/usr/bin/chromium"];
const PATH_NAMES = ["chromium", "chromium-browser"];
/** What a user without root runs; printed verbatim in the error. */
export const INSTALL_COMMAND = "sudo apt-get update && sudo apt-get install -y chromium";

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser's version line, or undefined when it does not start (a broken install, a snap shim). */
function versionOf(file) {
  try {
    return execFileSync(file, ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 20_000,
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Finds a working Chromium without installing anything.
 * @param {{ env?: NodeJS.ProcessEnv, systemPaths?: string[] }} [options]
 * @returns {{ path: string, version: string, source: "env" | "system" | "path" } | undefined}
 */
export function findChromium({ env = process.env, systemPaths = SYSTEM_PATHS } = {}) {
  if (env.CHROMIUM_PATH) {
    const file = env.CHROMIUM_PATH;
    const version = executable(file) ? versionOf(file) : undefined;
    if (!version)
      throw new Error(
        `CHROMIUM_PATH=${file} is not a working browser (${file} --version failed); unset it or point it at chromium`,
      );
    return { path: file, version, source: "env" };
  }
  for (const file of systemPaths) {
    const version = executable(file) ? versionOf(file) : undefined;
    if (version) return { path: file, version, source: "system" };
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    for (const name of PATH_NAMES) {
      const file = dir ? join(dir, name) : "";
      const version = file && existsSync(file) && executable(file) ? versionOf(file) : undefined;
      if (version) return { path: file, version, source: "path" };
    }
  }
  return undefined;
}

/**
 * Finds Chromium, or installs Debian's package when running as root with apt-get; otherwise throws
 * an error that gives the exact command to run.
 * @param {{ env?: NodeJS.ProcessEnv, systemPaths?: string[], uid?: number, hasApt?: boolean }} [options]
 * @returns {{ path: string, version: string, source: "env" | "system" | "path" | "installed" }}
 */
export function ensureChromium(options = {}) {
  return findOrAptInstall(options, {
    tool: "Chromium",
    pkg: "chromium",
    find: () => findChromium(options),
    // Where the package puts it, whatever the caller's search covered.
    findInstalled: () => findChromium({ env: { PATH: "" }, systemPaths: SYSTEM_PATHS }),
    notInstalled: "apt-get installed `chromium` but no working browser was found at /usr/bin/chromium",
    missing: (hasApt) => {
      const how = hasApt ? `run:\n\n  ${INSTALL_COMMAND}\n\n` : "install Chromium with your system's package manager, ";
      return (
        `The status page's browser test needs Chromium, and none was found (CHROMIUM_PATH, /usr/bin/chromium, ${PATH_NAMES.join(" or ")} on PATH). ` +
        `To install it, ${how}or set CHROMIUM_PATH to a Chromium or Chrome binary.`
      );
    },
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const found = ensureChromium();
    if (process.argv.includes("--json")) console.log(JSON.stringify(found));
    else {
      process.stderr.write(`${found.version} (${found.source}):\n`);
      console.log(found.path);
    }
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
