// How many monitors one server process keeps on schedule: N monitors probing a local target, the
// checker's start lag (p50/p99) after a warm-up, against the floor of a bare timer's lag.
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../dist/server/index.js";
import { toMonitorSpec } from "../dist/api/index.js";

const sizes = (process.env.BENCH_MONITORS ?? "500,2000,5000").split(",").map(Number);
const intervalSec = Number(process.env.BENCH_INTERVAL_SEC ?? 10);
const seconds = Number(process.env.BENCH_SECONDS ?? 25);

const target = createServer((_req, res) => res.writeHead(200).end("ok"));
await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(target.address() as { port: number }).port}/`;

async function timerFloor(ms = 2000): Promise<number> {
  const lags: number[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const t = performance.now();
    await new Promise((r) => setTimeout(r, 10));
    lags.push(performance.now() - t - 10);
  }
  lags.sort((a, b) => a - b);
  return lags[Math.floor(lags.length * 0.99)] as number;
}

console.log(`floor: bare 10 ms timer lag p99 ${(await timerFloor()).toFixed(1)} ms`);
console.log(`monitors  interval  checks/s  lag p50 ms  lag p99 ms`);
for (const n of sizes) {
  const dir = mkdtempSync(join(tmpdir(), "bench-sched-"));
  const key = "uk_benchmarkbenchmarkbenchmark";
  const seed = await buildApp({ db: join(dir, "s.db"), devKey: key, logger: false, checker: false, minIntervalSec: 1 });
  const accountId = (await seed.store.keys.authenticate(key))?.accountId as string;
  for (let i = 0; i < n; i++) {
    await seed.store.monitors.create(
      accountId,
      toMonitorSpec({ name: `m${i}`, type: "http", url, interval_sec: intervalSec, timeout_sec: 5 }),
    );
  }
  await seed.close();
  const app = await buildApp({
    db: join(dir, "s.db"),
    logger: false,
    minIntervalSec: 1,
    allowPrivateTargets: true,
    checkConcurrency: 256,
  });
  await app.ready();
  await new Promise((r) => setTimeout(r, intervalSec * 1000));
  app.checker.resetStats();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const s = app.checker.stats();
  console.log(
    `${String(n).padStart(8)}  ${String(intervalSec).padStart(6)} s  ${(s.checks / seconds).toFixed(0).padStart(8)}  ${String(s.lagP50Ms).padStart(10)}  ${String(s.lagP99Ms).padStart(10)}`,
  );
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
target.close();
