// Runs Schemathesis against a fresh reference server. Meant to run inside a private network
// namespace (`unshare -rn`, see test/server/schemathesis.test.ts) so that channel tests and
// probes of generated URLs can reach nothing but loopback.
// Usage: node api-fuzz.mjs <schemathesis executable> [--agent-operations] [extra schemathesis arguments...]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { buildApp } = require("../../dist/server/index.js");

const [bin, ...rest] = process.argv.slice(2);
// `--agent-operations`: the agent API with an agent key, against a server whose agent location
// always has checks due (otherwise each lease request would wait its whole `wait_ms`).
const agentOperations = rest.includes("--agent-operations");
const extra = rest.filter((a) => a !== "--agent-operations");
const key = `uk_${randomBytes(24).toString("base64url")}`;
// Limits raised: the fuzzer sends thousands of requests, hundreds without a key, from one address.
// Private targets allowed: which hosts a server may reach is its outbound policy, not a rule of
// the document, and with the checker off and the run inside a network namespace nothing is dialled
// but a channel test's receiver, which the namespace leaves unreachable.
const settings = {
  devKey: key,
  logger: false,
  checker: false,
  allowPrivateTargets: true,
  rateLimit: 1_000_000,
  publicRateLimit: 1_000_000,
  authFailureLimit: 1_000_000,
};
const work = mkdtempSync(join(tmpdir(), "schemathesis-"));
const { app, auth } = agentOperations ? await agentServer() : { app: await buildApp(settings), auth: key };
const base = await app.listen({ port: 0, host: "127.0.0.1" });
const args = [
  "--config-file",
  new URL("../server/schemathesis.toml", import.meta.url).pathname,
  "run",
  `${base}/api/v1/openapi.json`,
  "--checks",
  "all",
  "--max-examples",
  // 30 per operation and phase keeps the file near two minutes in `npm test`; SCHEMATHESIS_MAX_EXAMPLES
  // for a deeper run.
  process.env.SCHEMATHESIS_MAX_EXAMPLES ?? "30",
  "--header",
  `Authorization: Bearer ${auth}`,
  "--seed",
  "1",
  "--workers",
  "1",
  "--output-sanitize",
  "true",
  // Whole response bodies: the test reads each failure's details to tell its kind.
  "--output-truncate",
  "false",
  // The agent operations have no links between them: no stateful phase.
  ...(agentOperations ? ["--include-path-regex", "^/api/v1/agent/", "--phases", "examples,coverage,fuzzing"] : []),
  ...extra,
];
// Schemathesis keeps a cache in its working folder (a temporary one, never the clone).
const child = spawn(bin, args, { stdio: "inherit", cwd: work });
const code = await new Promise((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
await app.close();
rmSync(work, { recursive: true, force: true });
process.exit(code);

/**
 * A server (its database in `work`) with an agent key of location `fuzz` and 400 monitors there,
 * every 2 s: made by a first server, then opened by the one under test, whose schedule spreads
 * them over the interval, so a check falls due every few milliseconds.
 */
async function agentServer() {
  const db = join(work, "agents.db");
  const maker = await buildApp({ ...settings, db, minIntervalSec: 1 });
  await maker.ready();
  const agentKey = (await maker.store.keys.create("dev", "fuzz agent", undefined, "fuzz")).key;
  for (let i = 0; i < 400; i++) {
    const spec = {
      name: `m${i}`,
      type: "http",
      url: "http://127.0.0.1:9/",
      interval_sec: 2,
      timeout_sec: 1,
      locations: ["fuzz"],
    };
    const res = await maker.inject({
      method: "POST",
      url: "/api/v1/monitors",
      headers: { authorization: `Bearer ${key}` },
      payload: spec,
    });
    if (res.statusCode !== 201) throw new Error(`monitor not created: ${res.body}`);
  }
  await maker.close();
  return { app: await buildApp({ ...settings, db, minIntervalSec: 1 }), auth: agentKey };
}
