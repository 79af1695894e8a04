// What ensure-chromium.mjs and ensure-ping.mjs share: a tool found as it is, or installed from
// Debian's package when running as root with apt-get, or an error that gives the exact command.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * `find(options)`, or Debian's `pkg` installed with apt-get (as root, where apt-get is) and then
 * `findInstalled()`; otherwise throws `missing(hasApt)`.
 * @template T
 * @param {{ uid?: number, hasApt?: boolean }} options
 * @param {{ tool: string, pkg: string, find: () => T | undefined, findInstalled: () => T | undefined, notInstalled: string, missing: (hasApt: boolean) => string }} how
 * @returns {T | (T & { source: "installed" })}
 */
export function findOrAptInstall(options, { tool, pkg, find, findInstalled, notInstalled, missing }) {
  const found = find();
  if (found) return found;
  const uid = options.uid ?? process.getuid?.();
  const hasApt = options.hasApt ?? existsSync("/usr/bin/apt-get");
  if (uid === 0 && hasApt) {
    process.stderr.write(`${tool} not found: installing the Debian package \`${pkg}\` (first run only)...\n`);
    // apt-get runs in this process's environment, not the search's.
    const run = { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
    // Waits for dpkg's lock (a fresh machine may be installing updates) rather than failing at once.
    const wait = ["-o", "DPkg::Lock::Timeout=300"];
    execFileSync("apt-get", [...wait, "update"], run);
    execFileSync("apt-get", [...wait, "install", "-y", pkg], run);
    const installed = findInstalled();
    if (installed) return { ...installed, source: "installed" };
    throw new Error(notInstalled);
  }
  throw new Error(missing(hasApt));
}
