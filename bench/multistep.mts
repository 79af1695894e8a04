// Multi-step monitors against single-step ones, measured in the same run: runs per second per
// core of the check runner (3-step journeys and one-request checks against a target in another
// process), then the checker's start lag at N monitors of each kind.
import { fork } from "node:child_process";
import { join } from "node:path";
import { interceptors } from "undici";
import { toMonitorSpec } from "../dist/api/index.js";
import { CheckRunner } from "../dist/server/checker/dispatch.js";
import { outboundAgent } from "../dist/server/outbound.js";
import { checkerLag } from "./checker-lag.mts";

const n = Number(process.env.BENCH_MONITORS ?? 5000);
const intervalSec = Number(process.env.BENCH_INTERVAL_SEC ?? 10);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const runSeconds = Number(process.env.BENCH_RUN_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);

// The target answers every path with the same JSON, in a process of its own (its CPU is not ours).
const target = fork(join(import.meta.dirname, "target-process.mts"), [], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const url = await new Promise<string>((resolve) => target.once("message", (m) => resolve(String(m))));

const single = (name: string) =>
  toMonitorSpec({ name, type: "http", url: `${url}/health`, interval_sec: intervalSec, timeout_sec: 5 });
const journey = (name: string) =>
  toMonitorSpec({
    name,
    type: "multistep",
    url: null,
    interval_sec: intervalSec,
    timeout_sec: 5,
    variables: { password: "bench-password" },
    steps: [
      {
        name: "log in",
        method: "POST",
        url: `${url}/login`,
        body: '{"p":"{{password}}"}',
        extract: [{ name: "token", source: "json_body", property: "$.token", secret: true }],
      },
      {
        name: "create",
        method: "POST",
        url: `${url}/items`,
        headers: { authorization: "Bearer {{token}}" },
        extract: [{ name: "id", source: "json_body", property: "$.id" }],
      },
      {
        name: "read",
        url: `${url}/items/{{id}}`,
        headers: { authorization: "Bearer {{token}}" },
        assertions: [{ source: "json_body", property: "$.ok", comparison: "equals", target: "true" }],
      },
    ],
  });

/** Runs of `spec` per CPU-second of this process, `concurrency` at a time for `runSeconds`. */
async function runsPerCore(
  spec: ReturnType<typeof single>,
): Promise<{ perCore: number; perSecond: number; failed: number }> {
  const outbound = outboundAgent(true);
  const runner = new CheckRunner(undefined, {
    follow: outbound.compose(interceptors.redirect({ maxRedirections: 5 })),
    direct: outbound,
    allowPrivate: true,
  });
  const monitor = {
    ...spec,
    id: "mon_bench",
    account_id: "",
    status: "active",
    health: "pending",
    last_checked_at: null,
    external_id: null,
    created_at: "",
    updated_at: "",
  };
  let runs = 0;
  let failed = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const until = started + runSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const o = await runner.run(monitor as never);
        runs++;
        if (!o?.up) failed++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const wall = (performance.now() - started) / 1000;
  await runner.close();
  await outbound.close();
  return { perCore: runs / ((used.user + used.system) / 1e6), perSecond: runs / wall, failed };
}

const one = await runsPerCore(single("single"));
const three = await runsPerCore(journey("journey"));
console.log(
  `runs per CPU-second (concurrency ${concurrency}, ${runSeconds} s each): single-step ${one.perCore.toFixed(0)} (${one.perSecond.toFixed(0)}/s, ${one.failed} failed); 3-step ${three.perCore.toFixed(0)} (${three.perSecond.toFixed(0)}/s, ${three.failed} failed); ratio ${(one.perCore / three.perCore).toFixed(2)}`,
);
console.log(`kind         monitors  interval  checks/s  lag p50 ms  lag p99 ms`);
for (const [kind, make] of [
  ["single-step", single],
  ["3-step", journey],
] as const) {
  const r = await checkerLag(n, make, intervalSec, seconds);
  console.log(
    `${kind.padEnd(11)}  ${String(n).padStart(8)}  ${String(intervalSec).padStart(6)} s  ${r.checksPerSecond.toFixed(0).padStart(8)}  ${String(r.p50).padStart(10)}  ${String(r.p99).padStart(10)}`,
  );
}
target.kill();
