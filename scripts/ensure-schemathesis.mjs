#!/usr/bin/env node
// Ensures a Python virtual environment with Schemathesis (pinned) outside the clone, in
// ~/.cache/pulumi-uptime/schemathesis-<version> (or under PULUMI_UPTIME_CACHE), created from PyPI on first use and reused after.
// Prints the path of the `schemathesis` executable as its last line.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The Schemathesis release the API tests run; bump it here and the cache follows. */
export const SCHEMATHESIS_VERSION = "4.32.5";

/** The same cache as the Pulumi CLI's (scripts/ensure-pulumi.mjs). */
function cacheRoot() {
  return process.env.PULUMI_UPTIME_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-uptime");
}

function python() {
  for (const candidate of [process.env.PYTHON, "python3", "python"]) {
    if (!candidate) continue;
    try {
      execFileSync(candidate, ["-c", "import sys, venv; assert sys.version_info >= (3, 9)"], { stdio: "ignore" });
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error("Schemathesis needs Python >= 3.9 with the venv module (set PYTHON to choose one)");
}

/** The `schemathesis` executable, installing it into the cache first when it is missing. */
export function ensureSchemathesis() {
  const dir = join(cacheRoot(), `schemathesis-${SCHEMATHESIS_VERSION}`);
  const bin = join(dir, "bin", "schemathesis");
  // A venv cannot be moved (its scripts name their own path), so a marker written last tells a
  // finished install from an interrupted one, which is removed and made again.
  const done = join(dir, ".complete");
  if (existsSync(done)) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(cacheRoot(), { recursive: true });
  execFileSync(python(), ["-m", "venv", dir], { stdio: ["ignore", "inherit", "inherit"] });
  execFileSync(
    join(dir, "bin", "pip"),
    ["install", "--quiet", "--disable-pip-version-check", `schemathesis==${SCHEMATHESIS_VERSION}`],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  writeFileSync(done, `${new Date().toISOString()}\n`);
  return bin;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${ensureSchemathesis()}\n`);
}
