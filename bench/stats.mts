// Stats latency over a year of heartbeats at 30 s intervals for one monitor, against the floor of
// a plain GET of the same monitor, both over HTTP on loopback.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { buildApp } from "../dist/server/index.js";
import { toMonitorSpec } from "../dist/api/index.js";

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), "bench-stats-"));
const key = "uk_benchmarkbenchmarkbenchmark";
const app = await buildApp({ db: join(dir, "bench.db"), devKey: key, logger: false, checker: false });
const store = app.store;
const accountId = (await store.keys.authenticate(key))?.accountId as string;
const monitor = await store.monitors.create(
  accountId,
  toMonitorSpec({ name: "bench", type: "http", url: "https://x.example", interval_sec: 30 }),
);

const now = Date.now();
const started = performance.now();
let n = 0;
// Through the checker's own write path: heartbeat, daily roll-up and incidents in one transaction each.
for (let at = now - 365 * DAY; at <= now; at += 30_000) {
  const up = Math.random() > 0.001;
  await store.recordCheck(
    monitor.id,
    {
      up,
      response_time_ms: 50 + Math.floor(Math.random() * 200),
      status_code: up ? 200 : 503,
      error: up ? null : "unexpected status 503",
    },
    at,
  );
  n++;
}
const seedMs = performance.now() - started;
console.log(
  `recorded ${n.toLocaleString()} checks in ${(seedMs / 1000).toFixed(1)} s (${((seedMs * 1000) / n).toFixed(0)} µs per check, roll-up included)`,
);

const base = await app.listen({ port: 0, host: "127.0.0.1" });
const headers = { authorization: `Bearer ${key}` };
async function time(path: string, runs = 20): Promise<{ p50: number; max: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const res = await request(`${base}${path}`, { headers });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${path}: HTTP ${res.statusCode}`);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(runs / 2)] as number, max: samples[runs - 1] as number };
}

const rows: [string, string][] = [
  ["floor: GET monitor", `/api/v1/monitors/${monitor.id}`],
  ["stats?days=1", `/api/v1/monitors/${monitor.id}/stats?days=1`],
  ["stats?days=30", `/api/v1/monitors/${monitor.id}/stats?days=30`],
  ["stats?days=90", `/api/v1/monitors/${monitor.id}/stats?days=90`],
  ["heartbeats?hours=24", `/api/v1/monitors/${monitor.id}/heartbeats?hours=24`],
];
console.log("request                  p50 ms    max ms");
for (const [label, path] of rows) {
  const { p50, max } = await time(path);
  console.log(`${label.padEnd(24)} ${p50.toFixed(1).padStart(6)} ${max.toFixed(1).padStart(9)}`);
}
await app.close();
rmSync(dir, { recursive: true, force: true });
