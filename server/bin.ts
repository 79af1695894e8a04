#!/usr/bin/env node
/**
 * The `uptime-server` command. It checks the Node.js version before it loads anything: the
 * server's dependencies (undici's zstd support, `node:sqlite`) fail on an older Node.js with an
 * error that names neither the version nor the fix.
 */
export const NODE_REQUIRED = "22.19.0";

/** Why this Node.js cannot run the server (`version` as `process.versions.node`), or undefined. */
export function nodeTooOld(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [needMajor = 0, needMinor = 0] = NODE_REQUIRED.split(".").map(Number);
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `uptime-server needs Node.js ${NODE_REQUIRED} or later; this is Node.js ${version} (${process.execPath}).`;
}

if (require.main === module) {
  const problem = nodeTooOld(process.versions.node);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  import("./cli.js").then(
    (cli) => cli.run(),
    (err: Error) => {
      process.stderr.write(`uptime-server: ${err.message}\n`);
      process.exit(1);
    },
  );
}
