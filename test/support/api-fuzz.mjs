// Runs Schemathesis against a fresh reference server. Meant to run inside a private network
// namespace (`unshare -rn`, see test/server/schemathesis.test.ts) so that channel tests and
// probes of generated URLs can reach nothing but loopback.
// Usage: node api-fuzz.mjs <schemathesis executable> [extra schemathesis arguments...]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { buildApp } = require("../../dist/server/index.js");

const [bin, ...extra] = process.argv.slice(2);
const key = `uk_${randomBytes(24).toString("base64url")}`;
// Limits raised: the fuzzer sends thousands of requests, hundreds without a key, from one address.
// Private targets allowed: which hosts a server may reach is its outbound policy, not a rule of
// the document, and with the checker off and the run inside a network namespace nothing is dialled
// but a channel test's receiver, which the namespace leaves unreachable.
const app = await buildApp({
  devKey: key,
  logger: false,
  checker: false,
  allowPrivateTargets: true,
  rateLimit: 1_000_000,
  publicRateLimit: 1_000_000,
  authFailureLimit: 1_000_000,
});
const base = await app.listen({ port: 0, host: "127.0.0.1" });
const args = [
  "--config-file",
  new URL("../server/schemathesis.toml", import.meta.url).pathname,
  "run",
  `${base}/api/v1/openapi.json`,
  "--checks",
  "all",
  "--max-examples",
  "50",
  "--header",
  `Authorization: Bearer ${key}`,
  "--seed",
  "1",
  "--workers",
  "1",
  "--output-sanitize",
  "true",
  // Whole response bodies: the test reads each failure's details to tell its kind.
  "--output-truncate",
  "false",
  ...extra,
];
// Schemathesis keeps a cache in its working folder: a temporary one, never the clone.
const work = mkdtempSync(join(tmpdir(), "schemathesis-"));
const child = spawn(bin, args, { stdio: "inherit", cwd: work });
const code = await new Promise((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
await app.close();
rmSync(work, { recursive: true, force: true });
process.exit(code);
