// Checks per second and API requests per second with one and two replicas on PostgreSQL, against
// one process on SQLite, in one run. Each setup gets a new database with MONITORS monitors due
// every second (more than one process checks: the checks recorded per second are its capacity),
// then autocannon sends authenticated GETs of a monitor to every replica at once (the floor is the
// single SQLite process). The PostgreSQL server is a private one (scripts/private-postgres.ts),
// with pg_stat_statements loaded.
//
// Over the window of checks it prints, per setup: checks recorded per second, the CPU time of the
// server processes and of PostgreSQL (every process of the private server, from /proc/<pid>/stat)
// per recorded check, and the statements PostgreSQL ran per recorded check (pg_stat_statements:
// each round trip is one, BEGIN, SAVEPOINT and COMMIT included); then the GET's requests per second,
// and its CPU time per request: the servers' and PostgreSQL's over the GET's window, less the
// checks recorded in that window at the CPU per check just measured (a figure that the machine's
// other work changes much less than requests per second).
// The load average is printed with the figures: the machine may be shared.
//
// With BENCH_CPU_PROF=<dir>, each replica writes a CPU profile (node --cpu-prof) to
// <dir>/<setup number>, and the GET is left out (its work would hide the checks' in the profile);
// BENCH_GET=0 leaves it out too.
// With BENCH_HALF=1, one more setup: one replica on PostgreSQL with half the monitors, the work
// each of two replicas does (what two replicas spend beyond it is their coordination; what one
// replica at half the load spends beyond one at the full load is the cost of a lighter load).
// With BENCH_ROUNDS=<n>, the PostgreSQL setups are measured n times, one after another in turn (each
// time on new databases, against the one SQLite floor), and the ratios are printed per round with their
// median: on this machine one round's ratio moves by a fifth between runs of the same code.
// With BENCH_STATEMENTS=<n>, the n statements PostgreSQL ran most often in the window of checks
// are printed per setup, with their calls per recorded check.
//
//   BENCH_MONITORS=1000 BENCH_SECONDS=10 node bench/replicas.mts
//   BENCH_MONITORS=2000 BENCH_SECONDS=8 BENCH_ROUNDS=5 node bench/replicas.mts
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { toMonitorSpec } from "../dist/api/index.js";
import { startPostgres } from "../dist/scripts/private-postgres.js";
import { REPO_ROOT } from "../dist/scripts/pulumi-engine.js";
import { Store } from "../dist/server/index.js";

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const CPU_PROF = process.env.BENCH_CPU_PROF;
const SKIP_GET = CPU_PROF !== undefined || process.env.BENCH_GET === "0";
const TOP_STATEMENTS = Number(process.env.BENCH_STATEMENTS ?? 0);
const HALF = process.env.BENCH_HALF === "1";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const key = "uk_benchmarkbenchmarkbenchmark";
const dir = mkdtempSync(join(tmpdir(), "uptime-bench-replicas-"));
const keyFile = join(dir, "secret.key");

const target = createServer((_req, res) => res.writeHead(200).end("ok"));
target.listen(0, "127.0.0.1");
await once(target, "listening");
const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
const postgres = await startPostgres({
  settings: ["shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track_utility=on"],
});
const admin = new pg.Client({ connectionString: postgres.url() });
await admin.connect();
await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
/** Clock ticks per second of /proc's CPU times (Linux: 100). */
const TICKS = 100;
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
async function seed(db: string, monitors: number): Promise<string> {
  const store = await Store.open(db, { secretKeyFile: keyFile });
  await store.keys.create("bench", "bench", key);
  await store.keys.setMonitorLimit("bench", monitors + 10);
  const account = (await store.keys.authenticate(key))?.accountId as string;
  let first = "";
  await store.db.transaction(async () => {
    for (let i = 0; i < monitors; i++) {
      const m = await store.monitors.create(
        account,
        toMonitorSpec({
          name: `m${i}`,
          type: "http",
          url: `${targetUrl}/${i}`,
          interval_sec: 1,
          timeout_sec: 1,
        } as never),
      );
      first ||= m.id;
    }
  });
  await store.close();
  return first;
}

async function serve(db: string, profileDir?: string): Promise<{ child: ChildProcess; url: string }> {
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, "bench/replica.mts", db, keyFile], {
    cwd: REPO_ROOT,
    env: { ...process.env, UPTIME_DEV_KEY: key },
    stdio: ["ignore", "pipe", "inherit"],
  });
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

/** User and system CPU seconds of process `pid` (with `children`, also of its children that ended). */
function cpuOf(pid: number, children = false): number {
  try {
    // The fields after the command's closing parenthesis: state is the first, utime the 12th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const own = Number(f[11]) + Number(f[12]);
    return (children ? own + Number(f[13]) + Number(f[14]) : own) / TICKS;
  } catch {
    return 0; // ended
  }
}

/** CPU seconds of the PostgreSQL server: the postmaster, its live children, and those that ended (the postmaster waited for them). */
function postgresCpu(): number {
  const main = postgres.pid();
  let total = cpuOf(main, true);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === main) total += cpuOf(Number(entry));
    } catch {
      // ended while listed
    }
  }
  return total;
}

/** Calls of each statement PostgreSQL ran on database `db`, by its text. */
async function statementCalls(db: string): Promise<Map<string, number>> {
  const { rows } = await admin.query(
    "SELECT query, calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)",
    [new URL(db).pathname.slice(1)],
  );
  return new Map(rows.map((r: { query: string; calls: string }) => [r.query, Number(r.calls)]));
}

/** Counts read at the window's start and end. */
interface Sample {
  heartbeats: number;
  at: number;
  serverCpu: number;
  postgresCpu: number;
  statements: number;
}

async function sample(db: string, servers: { child: ChildProcess }[]): Promise<Sample> {
  const postgresDb = db.startsWith("postgres");
  let heartbeats: number;
  let statements = 0;
  if (postgresDb) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      heartbeats = Number((await client.query("SELECT COUNT(*) AS n FROM heartbeats")).rows[0].n);
    } finally {
      await client.end();
    }
    const name = new URL(db).pathname.slice(1);
    statements = Number(
      (
        await admin.query(
          "SELECT COALESCE(SUM(calls), 0) AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)",
          [name],
        )
      ).rows[0].n,
    );
  } else {
    const store = await Store.open(db, { secretKeyFile: keyFile });
    try {
      heartbeats = ((await store.db.prepare("SELECT COUNT(*) AS n FROM heartbeats").get()) as { n: number }).n;
    } finally {
      await store.close();
    }
  }
  return {
    heartbeats,
    at: Date.now(),
    serverCpu: servers.reduce((sum, s) => sum + cpuOf(s.child.pid as number), 0),
    postgresCpu: postgresDb ? postgresCpu() : 0,
    statements,
  };
}

/** One setup's figures. */
interface Row {
  name: string;
  checks: number;
  serverMsPerCheck: number;
  postgresMsPerCheck: number | undefined;
  statementsPerCheck: number | undefined;
  requests: number;
  /** CPU µs per GET (server and PostgreSQL), the checks' share taken out. */
  getMicros: number;
  load: string;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

let setups = 0;

async function measure(name: string, db: string, replicas: number, monitors = MONITORS): Promise<Row> {
  const monitorId = await seed(db, monitors);
  const profileDir = CPU_PROF && join(CPU_PROF, String(++setups));
  const servers = await Promise.all(Array.from({ length: replicas }, () => serve(db, profileDir)));
  // Past the start's spread of first checks.
  await new Promise((r) => setTimeout(r, 12_000));
  const postgresDb = db.startsWith("postgres");
  const callsBefore = TOP_STATEMENTS && postgresDb ? await statementCalls(db) : undefined;
  const before = await sample(db, servers);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const after = await sample(db, servers);
  const recorded = after.heartbeats - before.heartbeats;
  if (callsBefore) {
    const calls = [...(await statementCalls(db))].map(([q, n]) => [q, n - (callsBefore.get(q) ?? 0)] as const);
    console.log(`${name}: statements per recorded check (${recorded} recorded)`);
    for (const [q, n] of calls.sort((x, y) => y[1] - x[1]).slice(0, TOP_STATEMENTS))
      console.log(`  ${(n / recorded).toFixed(3).padStart(7)}  ${q.replace(/\s+/g, " ").slice(0, 110)}`);
  }
  const row: Row = {
    name,
    checks: recorded / ((after.at - before.at) / 1000),
    serverMsPerCheck: (1000 * (after.serverCpu - before.serverCpu)) / recorded,
    postgresMsPerCheck: postgresDb ? (1000 * (after.postgresCpu - before.postgresCpu)) / recorded : undefined,
    // Less the one count of heartbeats the second sample ran.
    statementsPerCheck: postgresDb ? (after.statements - before.statements - 1) / recorded : undefined,
    requests: 0,
    getMicros: 0,
    load: load(),
  };
  if (SKIP_GET) {
    await Promise.all(servers.map((s) => stop(s.child)));
    return row;
  }
  const getFrom = await sample(db, servers);
  const results = await Promise.all(
    servers.map((s) =>
      autocannon({
        url: `${s.url}/api/v1/monitors/${monitorId}`,
        connections: CONNECTIONS / replicas,
        duration: SECONDS,
        headers: { authorization: `Bearer ${key}` },
      }),
    ),
  );
  const getTo = await sample(db, servers);
  await Promise.all(servers.map((s) => stop(s.child)));
  for (const r of results)
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  row.requests = results.reduce((sum, r) => sum + r.requests.average, 0);
  const cpu = getTo.serverCpu - getFrom.serverCpu + (getTo.postgresCpu - getFrom.postgresCpu);
  const checksCpu =
    ((getTo.heartbeats - getFrom.heartbeats) * (row.serverMsPerCheck + (row.postgresMsPerCheck ?? 0))) / 1000;
  row.getMicros = (1e6 * (cpu - checksCpu)) / results.reduce((sum, r) => sum + r.requests.total, 0);
  return row;
}

/** The median of `values` (the mean of the middle two when their count is even). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const cpu = (r: Row | undefined) => (r ? r.serverMsPerCheck + (r.postgresMsPerCheck ?? 0) : Number.NaN);

try {
  const floor = await measure("1 process, SQLite (floor)", join(dir, "bench.db"), 1);
  const rows = [floor];
  /** Per round: two replicas' CPU per check against one's, and (with the GET) one replica's GET against SQLite's. */
  const ratios: { cpu: number; half?: number; get?: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const suffix = ROUNDS > 1 ? ` #${round}` : "";
    const one = await measure(`1 replica, PostgreSQL${suffix}`, await postgres.createDatabase(), 1);
    const half = HALF
      ? await measure(`1 replica, half${suffix}`, await postgres.createDatabase(), 1, Math.round(MONITORS / 2))
      : undefined;
    const two = await measure(`2 replicas, PostgreSQL${suffix}`, await postgres.createDatabase(), 2);
    rows.push(one, ...(half ? [half] : []), two);
    ratios.push({
      cpu: cpu(two) / cpu(one),
      half: half && cpu(two) / cpu(half),
      get: SKIP_GET ? undefined : one.requests / floor.requests,
    });
  }
  console.log(
    `${MONITORS} monitors due every second; GET /api/v1/monitors/<id>, ${CONNECTIONS} connections over the replicas, ${SECONDS} s each; CPU in ms per recorded check, µs (server and PostgreSQL) per GET`,
  );
  console.log(
    `${"setup".padEnd(28)} ${"checks/s".padStart(16)} ${"server CPU".padStart(10)} ${"PG CPU".padStart(7)} ${"stmts".padStart(6)} ${"GET req/s".padStart(16)} ${"µs/GET".padStart(15)}  load average (1, 5, 15 min)`,
  );
  const opt = (n: number | undefined, digits: number, width: number) =>
    (n === undefined ? "-" : n.toFixed(digits)).padStart(width);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(28)} ${r.checks.toFixed(0).padStart(6)} (${(r.checks / floor.checks).toFixed(2)}x) ${r.serverMsPerCheck.toFixed(3).padStart(10)} ${opt(r.postgresMsPerCheck, 3, 7)} ${opt(r.statementsPerCheck, 1, 6)} ${r.requests.toFixed(0).padStart(7)} (${(r.requests / floor.requests).toFixed(2)}x) ${r.getMicros.toFixed(0).padStart(6)} (${(r.getMicros / floor.getMicros).toFixed(2)}x)  ${r.load}`,
    );
  }
  const list = (values: number[]) =>
    `${values.map((v) => `${v.toFixed(2)}x`).join(", ")}${values.length > 1 ? ` (median ${median(values).toFixed(2)}x)` : ""}`;
  console.log(`server and PostgreSQL CPU per check, 2 replicas against 1: ${list(ratios.map((r) => r.cpu))}`);
  if (HALF)
    console.log(`2 replicas against 1 replica with half the monitors: ${list(ratios.map((r) => r.half as number))}`);
  if (!SKIP_GET) console.log(`GET on 1 replica against SQLite's: ${list(ratios.map((r) => r.get as number))}`);
} finally {
  for (const child of children) child.kill("SIGKILL");
  await admin.end();
  postgres.stop();
  target.close();
  rmSync(dir, { recursive: true, force: true });
}
