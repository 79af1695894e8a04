// Throughput of the public status page (HTML) and its JSON document through the whole server
// (custom page resolution, rate limit, components, 90-day history, logging at info) while the
// checker probes its monitors and they change state, against their floor: a bare node:http server
// answering the same bytes as a static file (read once, kept in memory) from the same machine.
// autocannon, 32 connections, loopback, the two sides alternated round after round; the best of
// each side counts. In every server run the probe monitor is flipped (up to down, or back), and
// the JSON document must show the change within one check interval.
//
//   BENCH_SECONDS=5   length of each run
//   BENCH_ROUNDS=2    rounds (each runs the floor and the server once per page)
//   BENCH_MONITORS=8  monitors on the page (two per component, in two sections), besides the probe
//   BENCH_INTERVAL=2  their check interval, in seconds
import { createServer } from "node:http";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { request } from "undici";
import { buildApp } from "../dist/server/index.js";

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MONITORS = Number(process.env.BENCH_MONITORS ?? 8);
const INTERVAL = Number(process.env.BENCH_INTERVAL ?? 2);
/** Each page's goal against its floor. */
const GOAL = 0.8;
/** How often one of the other monitors changes state during a run, in milliseconds. */
const FLIP_MS = 500;

const key = "uk_benchmarkbenchmarkbenchmark";
const dir = mkdtempSync(join(tmpdir(), "uptime-bench-status-"));

// The monitored targets: /m/<i> answers 200 while up[i], else 500.
const up = new Array<boolean>(MONITORS + 1).fill(true);
const targets = createServer((req, res) => {
  const i = Number(req.url?.split("/")[2]);
  res.writeHead(up[i] ? 200 : 500).end();
});
await new Promise<void>((resolve) => targets.listen(0, "127.0.0.1", resolve));
const targetBase = `http://127.0.0.1:${(targets.address() as AddressInfo).port}`;

// Logging as the CLI does (info), to a sink; rate limits no run reaches, so 429s never mix in; a
// database file, as `uptime-server serve` opens; the checker on, probing loopback.
const logger = { level: "info", stream: createWriteStream("/dev/null") };
const app = await buildApp({
  db: join(dir, "bench.db"),
  devKey: key,
  checker: true,
  minIntervalSec: 1,
  allowPrivateTargets: true,
  rateLimit: 100_000_000,
  publicRateLimit: 100_000_000,
  maxRequestsPerSocket: 100_000_000,
  logger: logger as never,
});
const base = await app.listen({ port: 0, host: "127.0.0.1" });
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<{ data: Record<string, unknown> }> {
  const res = await request(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.body.json()) as { data: Record<string, unknown> };
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(answer)}`);
  return answer;
}
const monitor = async (name: string, i: number) =>
  (
    await call("POST", "/api/v1/monitors", {
      name,
      type: "http",
      url: `${targetBase}/m/${i}`,
      interval_sec: INTERVAL,
      timeout_sec: 1,
    })
  ).data.id as string;

const probeId = await monitor("probe", 0);
const ids: string[] = [];
for (let i = 1; i <= MONITORS; i++) ids.push(await monitor(`service ${i}`, i));
const component = (k: number) => ({
  key: `c${k}`,
  name: `Component ${k}`,
  monitors: ids.filter((_, i) => i % 4 === k),
});
await call("POST", "/api/v1/status-pages", {
  slug: "bench",
  title: "Bench status",
  sections: [
    { name: "Core", components: [{ key: "probe", name: "Probe", monitors: [probeId] }, component(0), component(1)] },
    { name: "Help", components: [component(2), component(3), { key: "desk", name: "Support desk", rule: "manual" }] },
  ],
});

const htmlPath = "/status/bench";
const jsonPath = "/api/status/bench.json";
const documentOf = async () => {
  const res = await request(`${base}${jsonPath}`);
  return ((await res.body.json()) as { data: { sections: { components: { key: string; status: string }[] }[] } }).data;
};
const components = async () => (await documentOf()).sections.flatMap((s) => s.components);
const probeStatus = async () => (await components()).find((c) => c.key === "probe")?.status;

// Every component operational (its monitors checked) before the page's bytes are taken for the floor.
const settled = Date.now() + 10 * INTERVAL * 1000;
while ((await components()).some((c) => c.key !== "desk" && c.status !== "operational")) {
  if (Date.now() > settled) throw new Error("components not all operational after 10 check intervals");
  await sleep(200);
}

// The floor: the same bytes as static files, with the server's content types.
const files: Record<string, { body: Buffer; type: string }> = {};
for (const [name, path] of [
  ["page.html", htmlPath],
  ["page.json", jsonPath],
] as const) {
  const res = await request(`${base}${path}`);
  const bytes = Buffer.from(await res.body.arrayBuffer());
  writeFileSync(join(dir, name), bytes);
  files[`/${name}`] = { body: readFileSync(join(dir, name)), type: String(res.headers["content-type"]) };
}
const floor = createServer((req, res) => {
  const file = files[req.url ?? ""];
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { "content-type": file.type, "content-length": file.body.length }).end(file.body);
});
await new Promise<void>((resolve) => floor.listen(0, "127.0.0.1", resolve));
const floorBase = `http://127.0.0.1:${(floor.address() as AddressInfo).port}`;

interface Case {
  label: string;
  server: string;
  floor: string;
}
const CASES: Case[] = [
  {
    label: `GET ${htmlPath} (${(files["/page.html"] as { body: Buffer }).body.length} bytes)`,
    server: `${base}${htmlPath}`,
    floor: `${floorBase}/page.html`,
  },
  {
    label: `GET ${jsonPath} (${(files["/page.json"] as { body: Buffer }).body.length} bytes)`,
    server: `${base}${jsonPath}`,
    floor: `${floorBase}/page.json`,
  },
];

async function run(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const others = Object.keys(result.statusCodeStats ?? {}).filter((code) => Number(code) !== 200);
  if (others.length > 0 || result.errors > 0)
    throw new Error(
      `${url}: answers other than 200 (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`,
    );
  return result.requests.average;
}

/** Flips the probe, then polls the document (under the load) until it shows the change: the delay in ms. */
async function probeChange(): Promise<number> {
  up[0] = !up[0];
  const want = up[0] ? "operational" : "down";
  const flipped = Date.now();
  const deadline = flipped + 3 * INTERVAL * 1000;
  while (Date.now() < deadline) {
    if ((await probeStatus()) === want) return Date.now() - flipped;
    await sleep(50);
  }
  throw new Error(`the document did not show the probe ${want} within ${3 * INTERVAL} s`);
}

/** A server run while the other monitors change state, one every FLIP_MS, and the probe flips once. */
async function serverRun(url: string): Promise<{ rps: number; delay: number }> {
  let n = 0;
  const flipper = setInterval(() => {
    const i = 1 + (n++ % MONITORS);
    up[i] = !up[i];
  }, FLIP_MS);
  try {
    const [rps, delay] = await Promise.all([run(url), probeChange()]);
    return { rps, delay };
  } finally {
    clearInterval(flipper);
  }
}

const best = CASES.map(() => ({ floor: 0, server: 0 }));
const delays: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, c] of CASES.entries()) {
    const b = best[i] as { floor: number; server: number };
    b.floor = Math.max(b.floor, await run(c.floor));
    const r = await serverRun(c.server);
    b.server = Math.max(b.server, r.rps);
    delays.push(r.delay);
  }
}
const load = loadavg();
await app.close();
await new Promise((resolve) => floor.close(resolve));
await new Promise((resolve) => targets.close(resolve));
rmSync(dir, { recursive: true, force: true });

console.log(`| page | floor: static bytes, bare node:http (req/s) | server (req/s) | ratio |`);
console.log(`| --- | --- | --- | --- |`);
let worst = Number.POSITIVE_INFINITY;
for (const [i, c] of CASES.entries()) {
  const b = best[i] as { floor: number; server: number };
  worst = Math.min(worst, b.server / b.floor);
  console.log(`| ${c.label} | ${b.floor.toFixed(0)} | ${b.server.toFixed(0)} | ${(b.server / b.floor).toFixed(2)}x |`);
}
const slowest = Math.max(...delays);
console.log(
  `\nWorst page ${worst.toFixed(2)}x of its floor (goal >= ${GOAL}x; ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds, best of each; ` +
    `${MONITORS + 1} monitors checked every ${INTERVAL} s, one changing state every ${FLIP_MS} ms)`,
);
console.log(
  `Probe flips shown by the document after ${delays.map((d) => `${d} ms`).join(", ")} (goal <= one check interval, ${INTERVAL * 1000} ms)`,
);
console.log(
  `Load average at the end: ${load.map((l) => l.toFixed(2)).join(" ")} (${ROUNDS * CASES.length * 2} runs on this machine)`,
);
if (worst < GOAL || slowest > INTERVAL * 1000) process.exitCode = 1;
