// The checker's start lag with N monitors in one server process, shared by the scheduler and
// multi-step benchmarks: the monitors are written first (checker off), then a server with the
// checker runs one interval of warm-up and `seconds` of measurement.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../dist/server/index.js";
import type { toMonitorSpec } from "../dist/api/index.js";

type MonitorSpec = ReturnType<typeof toMonitorSpec>;

/** Checks per second and the start lag's p50 and p99 (ms) with `count` monitors made by `make`. */
export async function checkerLag(
  count: number,
  make: (name: string) => MonitorSpec,
  intervalSec: number,
  seconds: number,
): Promise<{ checksPerSecond: number; p50: number | null; p99: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-lag-"));
  const key = "uk_benchmarkbenchmarkbenchmark";
  const seed = await buildApp({ db: join(dir, "s.db"), devKey: key, logger: false, checker: false, minIntervalSec: 1 });
  const accountId = (await seed.store.keys.authenticate(key))?.accountId as string;
  for (let i = 0; i < count; i++) await seed.store.monitors.create(accountId, make(`m${i}`));
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
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  return { checksPerSecond: s.checks / seconds, p50: s.lagP50Ms, p99: s.lagP99Ms };
}
