// Throughput of three calls through the whole server (auth, rate limit, idempotency on POST,
// service, store, serializer, logging at info) against their floor: a bare Fastify route that
// answers the same JSON (and, for the create, parses the same body). autocannon, 32 connections,
// loopback, autocannon in a worker thread, each call's two runs alternated round after round; the best
// of each side counts. Beside req/s it prints the serving thread's CPU time per request, which a
// shared machine's load disturbs far less than throughput.
//
//   BENCH_SECONDS=5   length of each run
//   BENCH_ROUNDS=3    rounds (each runs the floor and the server once per call)
//   BENCH_LIST=50     monitors in the listed account (the list answers the default page)
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import Fastify from "fastify";
import { request } from "undici";
import { buildApp } from "../dist/server/index.js";

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LISTED = Number(process.env.BENCH_LIST ?? 50);
/** The GET's goal against its floor; list and create are reported beside it. */
const GOAL = 0.8;

const key = "uk_benchmarkbenchmarkbenchmark";
// Logging as the CLI does (info), to a sink; a rate limit no run reaches, so 429s never mix in.
const logger = { level: "info", stream: createWriteStream("/dev/null") };
// autocannon keeps sending on a socket the server marked `Connection: close` after its
// `maxRequestsPerSocket`, and Node answers those with 503: the bench lifts that limit.
// A database file, as `uptime-server serve` opens (an in-memory one skips the look for other
// processes' commits that a file needs on every request).
const dir = mkdtempSync(join(tmpdir(), "uptime-bench-server-"));
const app = await buildApp({
  db: join(dir, "bench.db"),
  devKey: key,
  checker: false,
  rateLimit: 100_000_000,
  maxRequestsPerSocket: 100_000_000,
  logger: logger as never,
});
const base = await app.listen({ port: 0, host: "127.0.0.1" });
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const monitor = (i: number) =>
  JSON.stringify({ name: `bench ${i}`, type: "http", url: "https://example.com", interval_sec: 60 });

async function call(method: "GET" | "POST", path: string, body?: string): Promise<unknown> {
  const res = await request(`${base}${path}`, { method, headers, body });
  return res.body.json();
}

const created = (await call("POST", "/api/v1/monitors", monitor(0))) as { data: { id: string } };
for (let i = 1; i < LISTED; i++) await call("POST", "/api/v1/monitors", monitor(i));
const onePath = `/api/v1/monitors/${created.data.id}`;
const answers = { one: await call("GET", onePath), list: await call("GET", "/api/v1/monitors"), create: created };

const floor = Fastify({ logger: false });
floor.get("/one", async () => answers.one);
floor.get("/list", async () => answers.list);
floor.post("/create", async (_req, reply) => reply.code(201).send(answers.create));
const floorBase = await floor.listen({ port: 0, host: "127.0.0.1" });

interface Case {
  label: string;
  server: autocannon.Options;
  floor: autocannon.Options;
  /** The status every answer must have. */
  status: number;
}

const post = { method: "POST" as const, body: monitor(1), headers };
const CASES: Case[] = [
  {
    label: "GET /api/v1/monitors/<id>",
    server: { url: `${base}${onePath}`, headers },
    floor: { url: `${floorBase}/one` },
    status: 200,
  },
  {
    label: `GET /api/v1/monitors (${LISTED} monitors)`,
    server: { url: `${base}/api/v1/monitors`, headers },
    floor: { url: `${floorBase}/list` },
    status: 200,
  },
  // Last: each create adds a monitor, which the list would then page through.
  {
    label: "POST /api/v1/monitors",
    server: { url: `${base}/api/v1/monitors`, ...post },
    floor: { url: `${floorBase}/create`, ...post },
    status: 201,
  },
];

/** Requests per second, and the serving thread's CPU time per request in µs (autocannon runs in a worker). */
async function run(options: autocannon.Options, status: number): Promise<{ rps: number; cpu: number }> {
  const before = process.threadCpuUsage();
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, workers: 1, ...options });
  const used = process.threadCpuUsage(before);
  const others = Object.keys(result.statusCodeStats ?? {}).filter((code) => Number(code) !== status);
  if (others.length > 0 || result.errors > 0) {
    throw new Error(
      `${options.url}: answers other than ${status} (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`,
    );
  }
  return { rps: result.requests.average, cpu: (used.user + used.system) / result.requests.total };
}

const loadStart = loadavg()
  .map((l) => l.toFixed(2))
  .join(" ");
type Side = { rps: number; cpu: number };
const best = CASES.map(() => ({ floor: { rps: 0, cpu: Infinity } as Side, server: { rps: 0, cpu: Infinity } as Side }));
const better = (a: Side, b: Side): Side => ({ rps: Math.max(a.rps, b.rps), cpu: Math.min(a.cpu, b.cpu) });
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, c] of CASES.entries()) {
    const b = best[i] as { floor: Side; server: Side };
    b.floor = better(b.floor, await run(c.floor, c.status));
    b.server = better(b.server, await run(c.server, c.status));
  }
}
await app.close();
await floor.close();
rmSync(dir, { recursive: true, force: true });

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(`load average (1, 5, 15 min) at the start: ${loadStart}; at the end: ${load()}`);
// Throughput depends on what else the machine runs; the CPU time the serving thread spends per
// request much less so: its ratio is what the throughput ratio would be on a quiet machine.
console.log(
  `| call | floor: bare Fastify (req/s) | server (req/s) | ratio | floor CPU per request (µs) | server CPU per request (µs) | CPU ratio (floor/server) |`,
);
console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
for (const [i, c] of CASES.entries()) {
  const b = best[i] as { floor: Side; server: Side };
  console.log(
    `| ${c.label} | ${b.floor.rps.toFixed(0)} | ${b.server.rps.toFixed(0)} | ${(b.server.rps / b.floor.rps).toFixed(2)}x | ${b.floor.cpu.toFixed(1)} | ${b.server.cpu.toFixed(1)} | ${(b.floor.cpu / b.server.cpu).toFixed(2)}x |`,
  );
}
const get = best[0] as { floor: Side; server: Side };
const ratio = get.server.rps / get.floor.rps;
console.log(
  `\nGET ${ratio.toFixed(2)}x of its floor by throughput, ${(get.floor.cpu / get.server.cpu).toFixed(2)}x by CPU per request (goal >= ${GOAL}x; ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds, best of each)`,
);
if (ratio < GOAL) process.exitCode = 1;
