/**
 * Imported first by each entry point of the package (the program's `pulumi-uptime`, the
 * provider's runtime, the commands): on a Node.js older than undici 8 supports, loading it would
 * crash inside undici with nothing about the version; this says which one it needs instead.
 */
import { join } from "node:path";
import { nodeTooOld } from "../api/node-version";

const problem = nodeTooOld("pulumi-uptime");
if (problem) {
  // The command says it and stops, as uptime-server does; a program gets an error Pulumi shows.
  if (require.main?.filename === join(__dirname, "commands", "cli.js")) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  throw new Error(problem);
}
