// Pulumi operations on N monitors against the reference server, each against two floors through the
// same engine in the same run: N empty dynamic resources, and N no-op dynamic resources whose outputs
// are a monitor's as its state holds them (the same shape: what the engine writes per checkpoint),
// with the API requests the server saw, and the state each resource takes (outputs, bytes).
// At the larger N also against the rate-limit floor. Beside these fresh-key steps, two on a key whose
// window is spent: two `up`s back to back on one key, and one `up` while another process spends N
// requests of its key. Then two concurrent `up`s on one key.
//
//   BENCH_SIZES=300,1000   resource counts of the per-step table
//   BENCH_PAIR=300,600     monitors per stack of the two concurrent `up`s (empty: skip)
//   BENCH_PARALLEL=32      the engine's parallelism (`pulumi up --parallel`), the same for both
//   BENCH_RATE_LIMIT=600 BENCH_WINDOW_MS=60000   the server's limit per key and window
//   BENCH_FRESH=0          only the steps on a spent window (skip the fresh-key steps)
//   BENCH_SAME_KEY=0       skip the steps on a spent window
//   BENCH_STEPS=create,... only these fresh-key steps (default: all)
//   BENCH_MODES=default,skip   the engine modes of the per-step table, each against its own floor: the
//                          engine's default (a checkpoint per step), and PULUMI_SKIP_CHECKPOINTS=true (the
//                          README's setting for stacks of this package only; each monitors stack first
//                          creates its stack instance with checkpoints, unmeasured, as the README says).
//                          The steps on one key and the two concurrent `up`s run with checkpoints skipped
//                          when that mode is listed.
//   BENCH_CPU_PROF=dir     V8 CPU profiles of the monitors stack's Node processes (program and provider) in dir
//   BENCH_HEAP_SNAPSHOT=dir BENCH_HEAP_AT=600,1200   V8 heap snapshots of the monitors stack's program in dir,
//                          one each time its RSS first passes each size (MiB); writing one adds about the
//                          heap's size to the program's RSS, so that run's peak RSS and times do not count
// The documented settings, the defaults here: both modes, --parallel 32, batched writes
// (the reference server serves them). Peak RSS of the engine, program and provider is sampled per step.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../dist/server/index.js";
import { installPackedPackage } from "../dist/scripts/packed.js";
import { offlineEngine } from "../dist/scripts/pulumi-engine.js";
import { benchStack, type BenchStack as Stack } from "./bench-stack.mts";
import { heapSnapshotOptions, snapshotAt } from "../dist/scripts/heap-snapshots.js";
import { MONITOR_FIELDS } from "../dist/api/index.js";
import { monitorKind } from "../dist/provider/kinds/monitor.js";
import { secretProperties } from "../dist/provider/kinds/fields.js";

const list = (v: string | undefined, d: string) => (v ?? d).split(",").filter(Boolean).map(Number);
const sizes = list(process.env.BENCH_SIZES, "300,1000");
const pairs = list(process.env.BENCH_PAIR, "300,600");
const parallel = Number(process.env.BENCH_PARALLEL ?? 32);
const rateLimit = Number(process.env.BENCH_RATE_LIMIT ?? 600);
const windowMs = Number(process.env.BENCH_WINDOW_MS ?? 60_000);
const fresh = process.env.BENCH_FRESH !== "0";
const sameKeySteps = process.env.BENCH_SAME_KEY !== "0";
const MODES = { default: false, skip: true } as const;
type Mode = keyof typeof MODES;
const modes = (process.env.BENCH_MODES ?? "default,skip").split(",").filter(Boolean) as Mode[];
for (const m of modes) if (!(m in MODES)) throw new Error(`BENCH_MODES: ${m} is no mode (default, skip)`);
/** Whether the stacks made now skip checkpoints (the mode being measured). */
let skipCheckpoints = modes.includes("skip");
const only = (process.env.BENCH_STEPS ?? "").split(",").filter(Boolean);

const dir = mkdtempSync(join(tmpdir(), "bench-up-"));
// No monitor cap (the server's default); the limiter is the real one.
const app = await buildApp({
  db: join(dir, "b.db"),
  devKey: "uk_benchmarkbenchmarkbenchmark",
  logger: false,
  checker: false,
  rateLimit,
  rateLimitWindowMs: windowMs,
});

/** Requests the server answered since the last `reset`: all, refused (>= 400), 429s, and the first's time. */
const seen = { total: 0, failed: 0, limited: 0, first: 0, routes: new Map<string, number>(), batched: [] as number[] };
app.addHook("onResponse", async (req, reply) => {
  seen.total++;
  const route = `${req.method} ${req.routeOptions.url ?? "?"}`;
  seen.routes.set(route, (seen.routes.get(route) ?? 0) + 1);
  if (reply.statusCode >= 400) seen.failed++;
  if (reply.statusCode === 429) seen.limited++;
  const items = (req.body as { items?: unknown[] } | undefined)?.items;
  if (route.endsWith("/batch") && Array.isArray(items)) seen.batched.push(items.length);
  if (!seen.first) seen.first = performance.now();
});
const baseUrl = await app.listen({ port: 0, host: "127.0.0.1" });

/**
 * The outputs of one of the monitors program's monitors as its state holds them (the provider's
 * own shaping of the service's answer), for the same-shape floor; the monitor is deleted again.
 */
async function monitorShape(): Promise<Record<string, unknown>> {
  const headers = { authorization: "Bearer uk_benchmarkbenchmarkbenchmark" };
  const inputs = {
    name: "m0",
    type: "http",
    url: "https://site-0.example.com/health",
    intervalSec: 60,
    tags: ["bench"],
  };
  // With a mark of the length the provider's creates carry.
  const external_id = "pulumi/bench-monitors/monitors-default-1000/0123456789abcdef/Monitor/m0";
  const body = {
    name: inputs.name,
    type: inputs.type,
    url: inputs.url,
    interval_sec: inputs.intervalSec,
    tags: inputs.tags,
    external_id,
  };
  const created = await app.inject({ method: "POST", url: "/api/v1/monitors", headers, payload: body });
  const api = created.json().data;
  await app.inject({ method: "DELETE", url: `/api/v1/monitors/${api.id}`, headers });
  const outputs = monitorKind.outputs(api, inputs, { baseUrl } as never);
  return monitorKind.state ? monitorKind.state(outputs) : outputs;
}
const shapeEnv = {
  BENCH_SHAPE: JSON.stringify(await monitorShape()),
  BENCH_SHAPE_SECRETS: JSON.stringify(secretProperties(MONITOR_FIELDS)),
};
const modules = await installPackedPackage();
const engine = await offlineEngine({ stateDir: join(dir, "pulumi") });
/** A new key of the same account: its rate-limit window starts empty, as each step's floor assumes. */
const freshKey = async () => (await app.store.keys.create("dev", "bench")).key;

async function stackOf(program: string, name: string, count: number, key: string): Promise<Stack> {
  const { stack, env } = await benchStack(engine, program, name, { modules, baseUrl, apiKey: key, count });
  if (program === "monitors") env.NODE_OPTIONS = nodeOptions();
  if (program === "shaped") Object.assign(env, shapeEnv);
  env.PULUMI_SKIP_CHECKPOINTS = String(skipCheckpoints);
  if (program === "monitors" && skipCheckpoints) {
    // The README's first step when checkpoints are skipped: the stack instance, with a checkpoint.
    env.PULUMI_SKIP_CHECKPOINTS = "false";
    await stack.up({
      target: [`urn:pulumi:${name}::bench-monitors::pulumi-nodejs:dynamic/uptime:StackIdentity::pulumi-uptime-stack`],
    });
    env.PULUMI_SKIP_CHECKPOINTS = "true";
  }
  return stack;
}

/** The monitors stack's Node options: the profiles and heap snapshots asked for. */
function nodeOptions(): string {
  const cpu = process.env.BENCH_CPU_PROF ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF}` : "";
  return `${cpu} ${heapSnapshotOptions()}`.trim();
}

interface Step {
  seconds: number;
  requests: number;
  failed: number;
  /** Requests refused with 429 (waited out by the client; none reaches the user unless `error` says so). */
  limited: number;
  /** Peak RSS (MiB) of each kind of process the step ran. */
  rss: Rss;
  /** CPU seconds of each kind of process, and of the server (this process). */
  cpu: Rss & { server: number };
  /** Seconds from the start of the step to the first API request. */
  firstAt: number;
  error?: string;
}

async function measure(fn: () => Promise<unknown>): Promise<Step> {
  Object.assign(seen, { total: 0, failed: 0, limited: 0, first: 0, routes: new Map(), batched: [] });
  const rss = sampleRss();
  const t = performance.now();
  let error: string | undefined;
  await fn().catch((err: Error) => (error = err.message.split("\n").slice(-8).join(" | ")));
  const seconds = (performance.now() - t) / 1000;
  return {
    seconds,
    requests: seen.total,
    failed: seen.failed,
    limited: seen.limited,
    ...rss.stop(),
    firstAt: seen.first ? (seen.first - t) / 1000 : seconds,
    error,
  };
}

type Rss = Record<"engine" | "program" | "provider", number>;

/** Each process under this one with its parent pid and command line. */
function processTree(): { pid: number; cmd: string }[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone while we looked.
    }
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) if (mine.has(ppid) && !mine.has(pid)) grew = Boolean(mine.add(pid));
  }
  mine.delete(process.pid);
  return [...mine].map((pid) => ({ pid, cmd: readText(`/proc/${pid}/cmdline`).replaceAll("\0", " ") }));
}

const readText = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

/** The engine (the `pulumi` CLI), the program (Node running it) or the provider (Node's dynamic-provider host). */
function roleOf(cmd: string): keyof Rss | undefined {
  if (cmd.includes("cmd/dynamic-provider")) return "provider";
  if (cmd.includes("cmd/run")) return "program";
  if (/(^|\/)pulumi (up|preview|refresh|destroy) /.test(cmd)) return "engine";
  return undefined;
}

/**
 * Samples every 250 ms each process's own peak (VmHWM) and CPU time; `stop` gives the largest peak
 * per kind (MiB) and the CPU seconds per kind, the server's (this process) included.
 */
function sampleRss(): { stop: () => { rss: Rss; cpu: Rss & { server: number } } } {
  const peak: Rss = { engine: 0, program: 0, provider: 0 };
  const cpuOf = new Map<number, { role: keyof Rss; seconds: number }>();
  const server = process.cpuUsage();
  const tick = () => {
    for (const { pid, cmd } of processTree()) {
      const role = roleOf(cmd);
      if (!role) continue;
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readText(`/proc/${pid}/status`))?.[1] ?? 0);
      peak[role] = Math.max(peak[role], Math.round(kb / 1024));
      if (role === "program")
        snapshotAt(pid, Math.round(Number(/VmRSS:\s+(\d+)/.exec(readText(`/proc/${pid}/status`))?.[1] ?? 0) / 1024));
      const stat = readText(`/proc/${pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime, in clock ticks (100 per second on Linux).
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
      if (Number.isFinite(seconds)) cpuOf.set(pid, { role, seconds });
    }
  };
  const timer = setInterval(tick, 250);
  return {
    stop: () => {
      clearInterval(timer);
      const cpu = { engine: 0, program: 0, provider: 0, server: 0 };
      for (const { role, seconds } of cpuOf.values()) cpu[role] += seconds;
      const used = process.cpuUsage(server);
      cpu.server = (used.user + used.system) / 1e6;
      return { rss: peak, cpu };
    },
  };
}

const STEPS = ["create", "no-op preview", "preview --refresh", "refresh", "update all", "destroy"] as const;

const ACTIONS: Record<(typeof STEPS)[number], (stack: Stack) => Promise<unknown>> = {
  create: (stack) => stack.up({ parallel }),
  "no-op preview": (stack) => stack.preview({ parallel }),
  "preview --refresh": (stack) => stack.preview({ parallel, refresh: true }),
  refresh: (stack) => stack.refresh({ parallel }),
  "update all": async (stack) => {
    await stack.setConfig("interval", { value: "120" });
    return stack.up({ parallel });
  },
  destroy: (stack) => stack.destroy({ parallel }),
};

/**
 * Every step on the floor program, then at once on the monitors: the two share whatever else the
 * machine does at that moment, so a busy machine slows both sides of a ratio alike.
 */
async function run(count: number, mode: Mode): Promise<Steps> {
  skipCheckpoints = MODES[mode];
  const programs = ["floor", "shaped", "monitors"] as const;
  const stacks = await Promise.all(
    programs.map(async (p) => stackOf(p, `${p}-${mode}-${count}`, count, await freshKey())),
  );
  const out: Steps = { floor: {}, shaped: {}, monitors: {}, state: {} };
  for (const label of STEPS.filter((l) => only.length === 0 || only.includes(l))) {
    for (const [i, program] of programs.entries()) {
      const stack = stacks[i] as Stack;
      await stack.setConfig("uptime:apiKey", { value: await freshKey(), secret: true });
      // `destroy` runs with the provider config recorded in state, not the stack's: a no-op `up`
      // (not measured) records the fresh key there first.
      if (label === "destroy") await stack.up({ parallel });
      const step = await measure(() => ACTIONS[label](stack));
      out[program][label] = step;
      if (label === "create") out.state[program] = statePerResource(stack.name);
      // Progress on stderr: a long run shows where it is; the tables go to stdout.
      const routes = [...seen.routes].map(([r, n]) => `${r} x${n}`).join(", ");
      process.stderr.write(
        `${program} N=${count} ${mode} ${label}: ${f1(step.seconds)} s, ${step.requests} requests (${routes})${batchSizes()}; peak RSS MiB ${JSON.stringify(step.rss)}; CPU s ${JSON.stringify(step.cpu)}\n`,
      );
    }
  }
  return out;
}

type Program = "floor" | "shaped" | "monitors";
/** Each program's steps, and the state one of its resources takes. */
type Steps = Record<Program, Record<string, Step>> & { state: Partial<Record<Program, ResourceState>> };

/** What one resource takes in the state: its outputs (the SDK's `__provider` left out), their bytes, its whole entry's bytes. */
interface ResourceState {
  outputs: number;
  outputBytes: number;
  entryBytes: number;
}

/** The state of the stack's first resource of this benchmark's own, from the checkpoint file the engine wrote. */
function statePerResource(stackName: string): ResourceState | undefined {
  const backend = join(dir, "pulumi", "backend");
  const file = readdirSync(backend, { recursive: true, withFileTypes: true }).find(
    (e) => e.isFile() && e.name === `${stackName}.json`,
  );
  if (!file) return undefined;
  const resources: { type: string; outputs?: Record<string, unknown> }[] = JSON.parse(
    readFileSync(join(file.parentPath, file.name), "utf8"),
  ).checkpoint.latest.resources;
  const entry = resources.find((r) => /dynamic:Resource$|dynamic\/uptime:Monitor$/.test(r.type));
  if (!entry) return undefined;
  const { __provider: _p, ...outputs } = entry.outputs ?? {};
  return {
    outputs: Object.keys(outputs).length,
    outputBytes: JSON.stringify(outputs).length,
    entryBytes: JSON.stringify(entry).length,
  };
}

/** The state per resource of each program, as a table. */
function stateTable(state: Steps["state"]): void {
  console.log(
    "\n| state per resource | outputs | bytes of outputs | bytes of its state entry |\n| --- | --- | --- | --- |",
  );
  const names: Record<Program, string> = {
    floor: "floor: empty dynamic resource",
    shaped: "same-shape floor",
    monitors: "monitor (http)",
  };
  for (const [program, s] of Object.entries(state) as [Program, ResourceState | undefined][]) {
    if (s) console.log(`| ${names[program]} | ${s.outputs} | ${s.outputBytes} | ${s.entryBytes} |`);
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

/** The sizes of the step's batches: how many, their mean and the largest. */
function batchSizes(): string {
  const b = seen.batched;
  if (b.length === 0) return "";
  return `; ${b.length} batches, mean ${f1(b.reduce((x, y) => x + y, 0) / b.length)} writes, largest ${Math.max(...b)}`;
}

/** Each step in every mode, each against its own floor: time, ratio and API requests. */
function besideEachOther(count: number, byMode: Map<Mode, Steps>): void {
  const ms = [...byMode.keys()];
  console.log(
    `\n## N = ${count}: the modes beside each other (each against the floors in the same mode; load ${load()})\n`,
  );
  console.log(
    `| step | ${ms.map((m) => `${m}: floor (s) | ${m}: same shape (s) | ${m}: monitors (s) | ${m}: ratio | ${m}: vs same shape | ${m}: requests`).join(" | ")} |`,
  );
  console.log(`| --- |${" --- |".repeat(6 * ms.length)}`);
  for (const label of Object.keys(byMode.get(ms[0] as Mode)?.monitors ?? {})) {
    const cells = ms.map((m) => {
      const { floor: fl, shaped, monitors } = byMode.get(m) as Steps;
      const [f, sh, s] = [fl[label] as Step, shaped[label] as Step, monitors[label] as Step];
      return `${f1(f.seconds)} | ${f1(sh.seconds)} | ${f1(s.seconds)} | ${ratio(s.seconds, f.seconds)} | ${ratio(s.seconds, sh.seconds)} | ${s.requests}`;
    });
    console.log(`| ${label} | ${cells.join(" | ")} |`);
  }
}

/** The least time the limiter allows for `requests` from a fresh window: a full window per `rateLimit` after the first. */
const windowsWait = (requests: number) => Math.max(0, Math.ceil(requests / rateLimit) - 1) * (windowMs / 1000);
const f1 = (n: number) => n.toFixed(1);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

function heading(count: number, mode: Mode): void {
  const checkpoints = MODES[mode] ? "checkpoints skipped" : "checkpoints (the engine's default)";
  console.log(
    `\n## N = ${count} (parallel ${parallel}; ${checkpoints}; limit ${rateLimit} per ${windowMs / 1000} s per key; load average 1 / 5 / 15 min at the end: ${load()})\n`,
  );
  console.log(
    "| step | floor (s) | monitors (s) | ratio | same-shape floor (s) | vs same shape | API requests | failed | of them 429 | rate-limit floor (s) | vs rate-limit floor | peak RSS MiB engine / program / provider | CPU s engine / program / provider / server |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
}

function row(label: string, fl: Step, m: Step, shaped?: Step): void {
  // The limiter only holds back requests: the engine's own time before the first one stays.
  const rl = Math.max(fl.seconds, m.firstAt + windowsWait(m.requests));
  const failed = `${m.failed}${m.error ? ` (error: ${m.error})` : ""}`;
  const rss = `${m.rss.engine} / ${m.rss.program} / ${m.rss.provider}`;
  const cpu = [m.cpu.engine, m.cpu.program, m.cpu.provider, m.cpu.server].map(f1).join(" / ");
  const same = shaped ? `${f1(shaped.seconds)} | ${ratio(m.seconds, shaped.seconds)}` : "— | —";
  console.log(
    `| ${label} | ${f1(fl.seconds)} | ${f1(m.seconds)} | ${ratio(m.seconds, fl.seconds)} | ${same} | ${m.requests} | ${failed} | ${m.limited} | ${f1(rl)} | ${ratio(m.seconds, rl)} | ${rss} | ${cpu} |`,
  );
}

/**
 * Another process spending `count` requests of the key: GETs, four at a time, each refused one
 * retried after its `Retry-After` (its 429s count as failed in the table). The key comes by environment.
 */
const SPENDER = `
const url = process.env.SPEND_URL + "/api/v1/monitors?limit=1";
const headers = { authorization: "Bearer " + process.env.SPEND_KEY };
let left = Number(process.env.SPEND_COUNT);
const one = async () => {
  while (left > 0) {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status === 429) await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? 1) * 1000));
    else if (res.ok) left--;
    else throw new Error("HTTP " + res.status);
  }
};
Promise.all([one(), one(), one(), one()]).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); });
`;

function spendElsewhere(key: string, count: number): Promise<void> {
  const env = { ...process.env, SPEND_URL: baseUrl, SPEND_KEY: key, SPEND_COUNT: String(count) };
  const child = spawn(process.execPath, ["-e", SPENDER], { env, stdio: ["ignore", "ignore", "inherit"] });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`spender exited ${code}`)))),
  );
}

/**
 * The steps on a key whose window is spent, as rows of the table: two `up`s back to back on one
 * key (the second finds the window spent by the first), and one `up` while another process spends
 * `count` requests of its key; each against the floor program's same `up`s on fresh keys, and
 * against the limiter's floor for all the requests the key was answered. Their keys belong to an
 * account of their own, so the monitors they leave do not lengthen the other steps' lists.
 */
async function sameKey(count: number): Promise<void> {
  const key = async () => (await app.store.keys.create(`same-key-${count}`, "bench")).key;
  const floors = await Promise.all(
    ["a", "b", "c"].map(async (s) => stackOf("floor", `same-key-floor-${s}-${count}`, count, await key())),
  );
  const shared = await key();
  const stacks = await Promise.all(
    ["a", "b"].map((s) => stackOf("monitors", `back-to-back-${s}-${count}`, count, shared)),
  );
  const floorPair = await measure(async () => {
    for (const stack of floors.slice(0, 2)) await stack.up({ parallel });
  });
  const pairStep = await measure(async () => {
    for (const stack of stacks) await stack.up({ parallel });
  });
  row(`back to back: 2 x create on one key`, floorPair, pairStep);
  const spent = await key();
  const stack = await stackOf("monitors", `spent-${count}`, count, spent);
  const floorOne = await measure(() => (floors[2] as Stack).up({ parallel }));
  const oneStep = await measure(() => Promise.all([stack.up({ parallel }), spendElsewhere(spent, count)]));
  row(`create while another process spends ${count} of its key`, floorOne, oneStep);
}

/** Two stacks on one key, `up` at once: each against the limiter's floor for their combined requests. */
async function pair(count: number): Promise<void> {
  const floors = await Promise.all(
    ["a", "b"].map(async (s) => stackOf("floor", `pair-floor-${s}-${count}`, count, await freshKey())),
  );
  const floorStep = await measure(() => Promise.all(floors.map((s) => s.up({ parallel }))));
  const key = await freshKey();
  const stacks = await Promise.all(["a", "b"].map((s) => stackOf("monitors", `pair-${s}-${count}`, count, key)));
  Object.assign(seen, { total: 0, failed: 0, limited: 0, first: 0, routes: new Map(), batched: [] });
  const t = performance.now();
  const each = await Promise.all(
    stacks.map(async (s) => {
      const e = await s.up({ parallel }).then(
        () => undefined,
        (err: Error) => err.message.split("\n").slice(-4).join(" | "),
      );
      return { seconds: (performance.now() - t) / 1000, error: e };
    }),
  );
  const firstAt = (seen.first - t) / 1000;
  const rl = Math.max(floorStep.seconds, firstAt + windowsWait(seen.total));
  for (const [i, r] of each.entries()) {
    const errors = r.error ? ` (error: ${r.error})` : "";
    console.log(
      `| 2 x ${count}, stack ${"ab"[i]} | ${f1(floorStep.seconds)} | ${f1(r.seconds)} | ${seen.total} combined | ${seen.failed}${errors} | ${f1(rl)} | ${ratio(r.seconds, rl)} |`,
    );
  }
  await Promise.all([...floors, ...stacks].map((s) => s.destroy({ parallel })));
}

try {
  for (const count of sizes) {
    const byMode = new Map<Mode, Awaited<ReturnType<typeof run>>>();
    for (const mode of fresh ? modes : []) {
      const steps = await run(count, mode);
      byMode.set(mode, steps);
      heading(count, mode);
      for (const label of Object.keys(steps.monitors))
        row(label, steps.floor[label] as Step, steps.monitors[label] as Step, steps.shaped[label]);
      stateTable(steps.state);
    }
    if (byMode.size > 1) besideEachOther(count, byMode);
    skipCheckpoints = modes.includes("skip");
    if (sameKeySteps) await sameKey(count);
  }
  if (pairs.length) {
    console.log(`\n## Two concurrent \`pulumi up\`s on one key (limit ${rateLimit} per ${windowMs / 1000} s)\n`);
    console.log(
      "| run | floor: 2 empty ups at once (s) | done after (s) | API requests | failed | rate-limit floor (s) | vs rate-limit floor |",
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- |");
    for (const count of pairs) await pair(count);
  }
} finally {
  await app.close();
  engine.dispose();
  rmSync(dir, { recursive: true, force: true });
}
