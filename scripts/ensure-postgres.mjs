#!/usr/bin/env node
// Ensures PostgreSQL's server binaries for the tests that run the store on PostgreSQL, the way
// ensure-chromium.mjs ensures a browser: `POSTGRES_BIN` (a folder with initdb and pg_ctl) when
// set, else Debian's /usr/lib/postgresql/<version>/bin (the newest), else initdb on PATH. When
// none is there and we run as root on Debian, installs the `postgresql` package with apt-get.
// Otherwise fails with the exact command. Prints the folder as its last line.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const DEBIAN_ROOT = "/usr/lib/postgresql";
/** What a user without root runs; printed verbatim in the error. */
export const INSTALL_COMMAND = "sudo apt-get update && sudo apt-get install -y postgresql";

const hasServer = (dir) =>
  existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")) && existsSync(join(dir, "postgres"));

/**
 * Finds PostgreSQL's server binaries without installing anything.
 * @param {{ env?: NodeJS.ProcessEnv, debianRoot?: string }} [options]
 * @returns {{ bin: string, source: "env" | "system" | "path" } | undefined}
 */
export function findPostgres({ env = process.env, debianRoot = DEBIAN_ROOT } = {}) {
  if (env.POSTGRES_BIN) {
    if (!hasServer(env.POSTGRES_BIN))
      throw new Error(
        `POSTGRES_BIN=${env.POSTGRES_BIN} holds no initdb, pg_ctl and postgres; unset it or point it at PostgreSQL's bin folder`,
      );
    return { bin: env.POSTGRES_BIN, source: "env" };
  }
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions)
      if (hasServer(join(debianRoot, v, "bin"))) return { bin: join(debianRoot, v, "bin"), source: "system" };
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) if (dir && hasServer(dir)) return { bin: dir, source: "path" };
  return undefined;
}

/**
 * Finds PostgreSQL, installs Debian's `postgresql` as root, or throws with the exact command to run.
 * @param {{ env?: NodeJS.ProcessEnv, debianRoot?: string, uid?: number, hasApt?: boolean }} [options]
 * @returns {{ bin: string, source: "env" | "system" | "path" | "installed" }}
 */
export function ensurePostgres(options = {}) {
  const found = findPostgres(options);
  if (found) return found;
  const uid = options.uid ?? process.getuid?.() ?? -1;
  const hasApt = options.hasApt ?? existsSync("/usr/bin/apt-get");
  if (uid !== 0 || !hasApt)
    throw new Error(
      `PostgreSQL's server is not installed (the PostgreSQL store tests start one of their own); install it with: ${INSTALL_COMMAND}`,
    );
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "postgresql"], { stdio: "inherit", env });
  const installed = findPostgres(options);
  if (!installed) throw new Error(`apt-get installed postgresql, but no initdb was found under ${DEBIAN_ROOT}`);
  return { ...installed, source: "installed" };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { bin } = ensurePostgres();
  process.stdout.write(`${bin}\n`);
}
