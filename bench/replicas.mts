// Checks per second and API requests per second with one and two replicas on PostgreSQL, against
// one process on SQLite, in one run. Each setup gets a new database with MONITORS monitors due
// every second (more than one process checks: the checks recorded per second are its capacity),
// then autocannon sends authenticated GETs of a monitor to every replica at once (the floor is the
// single SQLite process). The PostgreSQL server is a private one (scripts/private-postgres.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { toMonitorSpec } from "../dist/api/index.js";
import { startPostgres } from "../dist/scripts/private-postgres.js";
import { REPO_ROOT } from "../dist/scripts/pulumi-engine.js";
import { Store } from "../dist/server/index.js";

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const key = "uk_benchmarkbenchmarkbenchmark";
const dir = mkdtempSync(join(tmpdir(), "uptime-bench-replicas-"));
const keyFile = join(dir, "secret.key");

const target = createServer((_req, res) => res.writeHead(200).end("ok"));
target.listen(0, "127.0.0.1");
await once(target, "listening");
const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
const postgres = await startPostgres();
/** Replicas still running: stopped on the way out, whatever ended the run. */
const children = new Set<ChildProcess>();

/** SIGTERM, then SIGKILL if the replica has not exited after its shutdown timeout (20 s) and 10 s more. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => {
    console.error(`a replica did not exit 30 s after SIGTERM: killed`);
    child.kill("SIGKILL");
  }, 30_000);
  await exited;
  clearTimeout(timer);
}

/** A database with the bench's key and monitors; the id of one monitor to GET. */
async function seed(db: string): Promise<string> {
  const store = await Store.open(db, { secretKeyFile: keyFile });
  await store.keys.create("bench", "bench", key);
  await store.keys.setMonitorLimit("bench", MONITORS + 10);
  const account = (await store.keys.authenticate(key))?.accountId as string;
  let first = "";
  await store.db.transaction(async () => {
    for (let i = 0; i < MONITORS; i++) {
      const m = await store.monitors.create(account, toMonitorSpec({ name: `m${i}`, type: "http", url: `${targetUrl}/${i}`, interval_sec: 1, timeout_sec: 1 } as never));
      first ||= m.id;
    }
  });
  await store.close();
  return first;
}

async function serve(db: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["bench/replica.mts", db, keyFile], { cwd: REPO_ROOT, env: { ...process.env, UPTIME_DEV_KEY: key }, stdio: ["ignore", "pipe", "inherit"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let out = "";
  child.stdout?.on("data", (d) => (out = (out + d).slice(-10_000)));
  for (let i = 0; i < 600; i++) {
    const url = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1];
    if (url) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`no server started in 60 s: ${out}`);
}

async function heartbeats(db: string): Promise<number> {
  const store = await Store.open(db, { secretKeyFile: keyFile });
  try {
    return ((await store.db.prepare("SELECT COUNT(*) AS n FROM heartbeats").get()) as { n: number }).n;
  } finally {
    await store.close();
  }
}

async function measure(name: string, db: string, replicas: number): Promise<{ name: string; checks: number; requests: number }> {
  const monitorId = await seed(db);
  const servers = await Promise.all(Array.from({ length: replicas }, () => serve(db)));
  // Past the start's spread of first checks.
  await new Promise((r) => setTimeout(r, 12_000));
  const before = await heartbeats(db);
  const from = Date.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const checks = ((await heartbeats(db)) - before) / ((Date.now() - from) / 1000);
  const results = await Promise.all(
    servers.map((s) => autocannon({ url: `${s.url}/api/v1/monitors/${monitorId}`, connections: CONNECTIONS / replicas, duration: SECONDS, headers: { authorization: `Bearer ${key}` } })),
  );
  await Promise.all(servers.map((s) => stop(s.child)));
  for (const r of results) if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const requests = results.reduce((sum, r) => sum + r.requests.average, 0);
  return { name, checks, requests };
}

try {
  const rows = [
    await measure("1 process, SQLite (floor)", join(dir, "bench.db"), 1),
    await measure("1 replica, PostgreSQL", await postgres.createDatabase(), 1),
    await measure("2 replicas, PostgreSQL", await postgres.createDatabase(), 2),
  ];
  const floor = rows[0] as (typeof rows)[number];
  console.log(`${MONITORS} monitors due every second; GET /api/v1/monitors/<id>, ${CONNECTIONS} connections over the replicas, ${SECONDS} s each`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(28)} ${r.checks.toFixed(0).padStart(6)} checks/s (${(r.checks / floor.checks).toFixed(2)}x)  ${r.requests.toFixed(0).padStart(7)} req/s (${(r.requests / floor.requests).toFixed(2)}x)`,
    );
  }
} finally {
  for (const child of children) child.kill("SIGKILL");
  postgres.stop();
  target.close();
  rmSync(dir, { recursive: true, force: true });
}
