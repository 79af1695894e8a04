#!/usr/bin/env node
/**
 * The `uptime-server` command. It checks the Node.js version before it loads anything: the
 * server's dependencies (undici's zstd support, `node:sqlite`) fail on an older Node.js with an
 * error that names neither the version nor the fix.
 */
import { nodeTooOld as tooOld } from "../api/node-version";

export { NODE_REQUIRED } from "../api/node-version";

/** Why this Node.js cannot run the server (`version` as `process.versions.node`), or undefined. */
export function nodeTooOld(version: string): string | undefined {
  return tooOld("uptime-server", version);
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
