// Throughput of an authenticated GET of one monitor through the whole server (auth, rate limit,
// service, store, serializer, logging at info) against the floor: a bare Fastify route that
// returns the same JSON. autocannon, 32 connections, loopback, the two runs alternated.
import { createWriteStream } from "node:fs";
import autocannon from "autocannon";
import Fastify from "fastify";
import { request } from "undici";
import { buildApp } from "../dist/server/index.js";

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 2;
const GOAL = 0.5;

const key = "uk_benchmarkbenchmarkbenchmark";
// Logging as the CLI does (info), to a sink; a rate limit no run reaches, so 429s never mix in.
const logger = { level: "info", stream: createWriteStream("/dev/null") };
// autocannon keeps sending on a socket the server marked `Connection: close` after its
// `maxRequestsPerSocket`, and Node answers those with 503: the bench lifts that limit.
const app = await buildApp({ devKey: key, checker: false, rateLimit: 100_000_000, maxRequestsPerSocket: 100_000_000, logger: logger as never });
const base = await app.listen({ port: 0, host: "127.0.0.1" });
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const created = await request(`${base}/api/v1/monitors`, {
  method: "POST",
  headers,
  body: JSON.stringify({ name: "bench", type: "http", url: "https://example.com", interval_sec: 60 }),
});
const body = (await created.body.json()) as { data: { id: string } };
const monitorUrl = `${base}/api/v1/monitors/${body.data.id}`;
const payload = await (await request(monitorUrl, { headers })).body.json();

const floor = Fastify({ logger: false });
floor.get("/m", async () => payload);
const floorUrl = `${await floor.listen({ port: 0, host: "127.0.0.1" })}/m`;

async function run(url: string, withKey: boolean): Promise<number> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: withKey ? { authorization: `Bearer ${key}` } : {},
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`);
  }
  return result.requests.average;
}

const best = { floor: 0, server: 0 };
for (let i = 0; i < ROUNDS; i++) {
  best.floor = Math.max(best.floor, await run(floorUrl, false));
  best.server = Math.max(best.server, await run(monitorUrl, true));
}
await app.close();
await floor.close();

const ratio = best.server / best.floor;
console.log(`floor: bare Fastify route, same JSON     ${best.floor.toFixed(0).padStart(7)} req/s`);
console.log(`server: GET /api/v1/monitors/<id> + key  ${best.server.toFixed(0).padStart(7)} req/s`);
console.log(
  `ratio ${ratio.toFixed(2)}× of the floor (goal ≥ ${GOAL}×; ${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds, best of each)`,
);
if (ratio < GOAL) process.exitCode = 1;
