// How many monitors one server process keeps on schedule: N monitors probing a local target, the
// checker's start lag (p50/p99) after a warm-up, against the floor of a bare timer's lag.
import { createServer } from "node:http";
import { checkerLag } from "./checker-lag.mts";
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
  const make = (name: string) => toMonitorSpec({ name, type: "http", url, interval_sec: intervalSec, timeout_sec: 5 });
  const r = await checkerLag(n, make, intervalSec, seconds);
  console.log(
    `${String(n).padStart(8)}  ${String(intervalSec).padStart(6)} s  ${r.checksPerSecond.toFixed(0).padStart(8)}  ${String(r.p50).padStart(10)}  ${String(r.p99).padStart(10)}`,
  );
}
target.close();
