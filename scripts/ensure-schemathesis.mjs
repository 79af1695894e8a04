#!/usr/bin/env node
// Ensures a Python virtual environment with Schemathesis (pinned) outside the clone, in
// schemathesis-<version> under the project's cache (scripts/cache.mjs), created from PyPI on
// first use (once, however many processes ask) and reused after.
// Prints the path of the `schemathesis` executable as its last line.
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot, venvOnce } from "./cache.mjs";

/** The Schemathesis release the API tests run; bump it here and the cache follows. */
export const SCHEMATHESIS_VERSION = "4.32.5";

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

/**
 * The `schemathesis` executable, installing it into the cache first when it is missing.
 * @returns {Promise<string>}
 */
export async function ensureSchemathesis() {
  const dir = join(cacheRoot(), `schemathesis-${SCHEMATHESIS_VERSION}`);
  await venvOnce(dir, python(), [`schemathesis==${SCHEMATHESIS_VERSION}`]);
  return join(dir, "bin", "schemathesis");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await ensureSchemathesis()}\n`);
}
