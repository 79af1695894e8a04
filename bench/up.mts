// `pulumi up` of N monitors against the reference server: create, a no-op up, an update of all,
// and destroy, each against the floor of N empty dynamic resources in the same run.
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../dist/server/index.js";
import { installPackedPackage } from "../dist/scripts/packed.js";
import { offlineEngine, prepareProgram, REPO_ROOT } from "../dist/scripts/pulumi-engine.js";

const count = Number(process.env.BENCH_RESOURCES ?? 200);
const dir = mkdtempSync(join(tmpdir(), "bench-up-"));
const key = "uk_benchmarkbenchmarkbenchmark";
const app = await buildApp({ db: join(dir, "b.db"), devKey: key, logger: false, checker: false });
const baseUrl = await app.listen({ port: 0, host: "127.0.0.1" });
const modules = installPackedPackage();
const engine = await offlineEngine({ stateDir: join(dir, "pulumi") });

async function run(program: string): Promise<Record<string, number>> {
  const workDir = prepareProgram(join(REPO_ROOT, "bench", "programs", program), {});
  symlinkSync(modules, join(workDir, "node_modules"), "dir");
  const stack = await engine.stack(workDir, program);
  await stack.setAllConfig({
    count: { value: String(count) },
    "uptime:baseUrl": { value: baseUrl },
    "uptime:apiKey": { value: key, secret: true },
  });
  const times: Record<string, number> = {};
  const time = async (label: string, fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    times[label] = (performance.now() - t) / 1000;
  };
  await time("create", () => stack.up({ parallel: 32 }));
  await time("no-op up", () => stack.up({ parallel: 32 }));
  await stack.setConfig("interval", { value: "120" });
  await time("update all", () => stack.up({ parallel: 32 }));
  await time("destroy", () => stack.destroy({ parallel: 32 }));
  rmSync(workDir, { recursive: true, force: true });
  return times;
}

const floor = await run("floor");
const monitors = await run("monitors");
console.log(`pulumi up of ${count} resources (seconds)`);
console.log("step          floor (empty)  monitors");
for (const step of Object.keys(floor)) {
  console.log(`${step.padEnd(13)} ${floor[step]?.toFixed(1).padStart(13)} ${monitors[step]?.toFixed(1).padStart(9)}`);
}
await app.close();
engine.dispose();
rmSync(dir, { recursive: true, force: true });
