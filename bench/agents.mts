// Checker agents at scale: 20,000 monitors at 60 s against a local target, a quarter checked by
// the built-in checker, the rest at one agent location served by 3 agent processes, then by 1.
// Reports checks per second, the scheduler's lag (due time → check start) p50/p99/max for the
// built-in checker and for the agents, leases lost and results recorded twice. Monitors start
// with their next checks spread evenly over a minute, so the run measures the steady state.
// BENCH_MONITORS, BENCH_SECONDS (measured window, default 60) and BENCH_AGENTS ("3,1") change it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../dist/server/index.js";
import { toMonitorSpec } from "../dist/api/index.js";

const monitors = Number(process.env.BENCH_MONITORS ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const agentCounts = (process.env.BENCH_AGENTS ?? "3,1").split(",").map(Number);
const INTERVAL_SEC = 60;

// The target in a process of its own, as a checked service is: the server's CPU time and lag are its own.
const TARGET = `const s = require("http").createServer((q, r) => r.writeHead(200).end("ok")).listen(0, "127.0.0.1", () => console.log(s.address().port))`;
const target = spawn(process.execPath, ["-e", TARGET], { stdio: ["ignore", "pipe", "inherit"] });
const port = await new Promise<string>((resolve) => target.stdout?.once("data", (d) => resolve(String(d).trim())));
const url = `http://127.0.0.1:${port}/`;

const quantile = (sorted: number[], q: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) : NaN;

console.log(
  `${monitors} monitors every ${INTERVAL_SEC} s; a quarter at the built-in checker, the rest at location "edge"; ${seconds} s measured`,
);
console.log(
  "agents  checks/s  builtin lag p50/p99/max ms  agent lag p50/p99/max ms  leased  leases lost  double  server CPU µs/check",
);
for (const agents of agentCounts) {
  const dir = mkdtempSync(join(tmpdir(), "bench-agents-"));
  const key = "uk_benchmarkbenchmarkbenchmark";
  const db = join(dir, "s.db");
  const seed = await buildApp({ db, devKey: key, logger: false, checker: false, minIntervalSec: 1 });
  const accountId = (await seed.store.keys.authenticate(key))?.accountId as string;
  writeFileSync(join(dir, "agent.key"), (await seed.store.keys.create("dev", "edge", undefined, "edge")).key, {
    mode: 0o600,
  });
  const { store } = seed;
  const ids: { id: string; edge: boolean }[] = [];
  for (let i = 0; i < monitors; i++) {
    const edge = i % 4 !== 0;
    const spec = toMonitorSpec({
      name: `m${i}`,
      type: "http",
      url,
      interval_sec: INTERVAL_SEC,
      timeout_sec: 5,
      ...(edge ? { locations: ["edge"] } : {}),
    });
    ids.push({ id: (await store.monitors.create(accountId, spec)).id, edge });
  }
  // Last checked as in a server long up: the next checks fall due evenly over a minute from
  // \`base\`, once the server and the agents are up (seeding takes a while on a loaded machine).
  const base = Date.now() + 20_000;
  await store.db.transaction(async () => {
    for (const [i, { id, edge }] of ids.entries()) {
      const last = base - INTERVAL_SEC * 1000 + Math.floor((i / monitors) * INTERVAL_SEC * 1000);
      if (edge)
        await store.db
          .prepare(
            "INSERT INTO location_health (monitor_id, location, health, failures, successes, last_checked_at) VALUES (?, 'edge', 'up', 0, 1, ?)",
          )
          .run(id, last);
      else
        await store.db
          .prepare("UPDATE monitors SET last_checked_at = ? WHERE id = ?")
          .run(new Date(last).toISOString(), id);
    }
  });
  await seed.close();

  const app = await buildApp({
    db,
    logger: false,
    minIntervalSec: 1,
    allowPrivateTargets: true,
    checkConcurrency: 256,
    leaseMs: 30_000,
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const children: ChildProcess[] = [];
  for (let i = 0; i < agents; i++) {
    const args = [
      "dist/server/cli.js",
      "agent",
      "--server",
      address,
      "--location",
      "edge",
      "--key-file",
      join(dir, "agent.key"),
      "--allow-private-targets",
      "--concurrency",
      "128",
      "--agent-id",
      `edge-${i}`,
    ];
    children.push(spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] }));
  }
  // Every agent connected (their start takes seconds on a loaded machine); the window opens once
  // checks fall due.
  while ((await app.store.agents.list(accountId)).length < agents) await new Promise((r) => setTimeout(r, 200));
  if (Date.now() > base) console.log(`(started ${Date.now() - base} ms after the first checks fell due)`);
  await new Promise((r) => setTimeout(r, Math.max(2_000, base + 2_000 - Date.now())));
  app.checker.resetStats();
  app.leases.resetStats();
  const startedAt = Date.now();
  const cpuBefore = process.cpuUsage();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const elapsed = (Date.now() - startedAt) / 1000;
  // The server's own CPU time per check: what lag comes from on a machine it shares.
  const cpu = process.cpuUsage(cpuBefore);
  const builtin = app.checker.stats();
  const leased = app.leases.stats();
  // Lost: leases that expired unanswered (their checks went to another agent, late).
  const lost = leased.expired;
  const double = (
    (await app.store.db
      .prepare("SELECT COUNT(*) - COUNT(DISTINCT check_key) AS n FROM heartbeats WHERE check_key IS NOT NULL")
      .get()) as { n: number }
  ).n;
  const lags = [...leased.lags].sort((a, b) => a - b);
  const fmt = (p50: number | null, p99: number | null, max: number | null) => `${p50}/${p99}/${max}`.padStart(25);
  const after = leased;
  console.log(
    `${String(agents).padStart(6)}  ${((builtin.checks + leased.recorded) / elapsed).toFixed(0).padStart(8)}  ${fmt(builtin.lagP50Ms, builtin.lagP99Ms, builtin.lagMaxMs)}  ${fmt(quantile(lags, 0.5), quantile(lags, 0.99), lags.at(-1) ?? null)}  ${String(after.leased).padStart(6)}  ${String(lost).padStart(11)}  ${String(double + after.duplicates).padStart(6)}  ${String(Math.round((cpu.user + cpu.system) / (builtin.checks + leased.recorded))).padStart(19)}`,
  );
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map((c) => new Promise((r) => c.once("exit", r))));
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
target.kill();
