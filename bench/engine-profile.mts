// Where the engine's own CPU goes when it saves checkpoints: N monitors against N empty dynamic
// resources (the floor of bench/up.mts), each stack created, every resource updated, then
// destroyed, by the `pulumi` CLI with `--profiling` (Go's CPU profile of the engine), in the
// engine's default mode (a checkpoint before and after each step). Prints each step's wall time and
// the engine's CPU seconds in all and in the frames that save checkpoints, read from the profiles
// with `go tool pprof`.
//
//   BENCH_SIZE=300      resources per stack
//   BENCH_PROFILES=dir  where the profiles stay (default: a new temporary folder)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../dist/server/index.js";
import { installPackedPackage } from "../dist/scripts/packed.js";
import { offlineEngine } from "../dist/scripts/pulumi-engine.js";
import { benchStack } from "./bench-stack.mts";

const N = Number(process.env.BENCH_SIZE ?? 300);
const dir = mkdtempSync(join(tmpdir(), "bench-engine-profile-"));
const profiles = process.env.BENCH_PROFILES ?? join(dir, "profiles");
mkdirSync(profiles, { recursive: true });

/** Runs a command without blocking this process (the server answering the provider lives here). */
function run(
  cmd: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code) => done({ code: code ?? -1, output }));
  });
}

// The checker off and no rate limit a run could reach: the engine's CPU is what is measured.
const app = await buildApp({
  db: join(dir, "b.db"),
  devKey: "uk_benchmarkbenchmarkbenchmark",
  logger: false,
  checker: false,
  rateLimit: 1e9,
});
const baseUrl = await app.listen({ port: 0, host: "127.0.0.1" });
const modules = await installPackedPackage();
const engine = await offlineEngine({ stateDir: join(dir, "pulumi") });
const pulumi = join(engine.binDir, "pulumi");
const key = (await app.store.keys.create("dev", "bench")).key;

const stacks = [];
for (const program of ["floor", "monitors"]) {
  const { workDir, env: stackEnv } = await benchStack(engine, program, program, {
    modules,
    baseUrl,
    apiKey: key,
    count: N,
  });
  const env = { ...process.env, ...engine.envVars, ...stackEnv };
  stacks.push({ program, workDir, env });
}

/** Seconds of the profile in all, and in each frame named (cumulative). */
async function cpuOf(profile: string, frames: Record<string, RegExp>): Promise<Record<string, number>> {
  const { output } = await run("go", ["tool", "pprof", "-top", "-cum", "-nodecount=400", pulumi, profile], {
    cwd: dir,
    env: process.env,
  });
  const seconds = (v: string) => (v.endsWith("ms") ? Number(v.slice(0, -2)) / 1000 : Number(v.slice(0, -1)));
  const result: Record<string, number> = { all: seconds(/Total samples = (\S+)/.exec(output)?.[1] ?? "0s") };
  for (const [label, frame] of Object.entries(frames)) {
    const line = output.split("\n").find((l) => frame.test(l));
    result[label] = line ? seconds(line.trim().split(/\s+/)[3] as string) : 0;
  }
  return result;
}

const FRAMES = {
  "save checkpoints": /SnapshotManager\)\.saveSnapshot$/,
  "serialize resources": /stack\.SerializeDeploymentWithMetadata$/,
  "write JSON": /diy\.compactJSONMarshaler\.Marshal$/,
};
const rows: string[] = [];
const STEPS = [
  { label: "create", args: ["up"] },
  { label: "update all", args: ["up"], before: ["config", "set", "interval", "120"] },
  { label: "destroy", args: ["destroy"] },
];
for (const step of STEPS) {
  const cells: Record<string, { seconds: number; cpu: Record<string, number> }> = {};
  for (const s of stacks) {
    if (step.before) await run(pulumi, [...step.before, "--stack", s.program], { cwd: s.workDir, env: s.env });
    const prefix = join(profiles, `${s.program}-${step.label.replace(" ", "-")}`);
    const t = performance.now();
    const flags = [
      "--stack",
      s.program,
      "--yes",
      "--non-interactive",
      "--skip-preview",
      "--parallel",
      "32",
      "--profiling",
      prefix,
    ];
    const { code, output } = await run(pulumi, [...step.args, ...flags], { cwd: s.workDir, env: s.env });
    const seconds = (performance.now() - t) / 1000;
    if (code !== 0) throw new Error(`${s.program} ${step.label} failed:\n${output.slice(-2000)}`);
    const profile = readdirSync(profiles).find(
      (f) => join(profiles, f).startsWith(`${prefix}.`) && f.endsWith(".cpu"),
    ) as string;
    cells[s.program] = { seconds, cpu: await cpuOf(join(profiles, profile), FRAMES) };
  }
  const { floor, monitors } = cells as Record<"floor" | "monitors", { seconds: number; cpu: Record<string, number> }>;
  const pair = (f: number, m: number) => `${f.toFixed(1)} / ${m.toFixed(1)}`;
  rows.push(
    `| ${step.label} | ${pair(floor.seconds, monitors.seconds)} | ${(monitors.seconds / floor.seconds).toFixed(2)}x | ` +
      ["all", ...Object.keys(FRAMES)].map((k) => pair(floor.cpu[k] ?? 0, monitors.cpu[k] ?? 0)).join(" | ") +
      " |",
  );
}
await app.close();

console.log(`\n## The engine's CPU with checkpoints, N = ${N} (floor / monitors)\n`);
console.log(`| step | wall s | ratio | engine CPU s | ${Object.keys(FRAMES).join(" | ")} |`);
console.log(
  `| --- | --- | --- | --- | ${Object.keys(FRAMES)
    .map(() => "---")
    .join(" | ")} |`,
);
for (const row of rows) console.log(row);
console.log(`\nProfiles: ${profiles} (go tool pprof ${pulumi} <file>.cpu)`);
