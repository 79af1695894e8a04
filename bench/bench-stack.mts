// A stack of one of the programs in bench/programs, shared by the engine benchmarks (up, engine-profile).
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { type offlineEngine, prepareProgram, REPO_ROOT } from "../dist/scripts/pulumi-engine.js";

/** The offline engine the benchmarks deploy with. */
export type BenchEngine = Awaited<ReturnType<typeof offlineEngine>>;
/** A stack of `BenchEngine`. */
export type BenchStack = Awaited<ReturnType<BenchEngine["stack"]>>;

/** Where a bench stack deploys to, and how many resources it declares. */
export interface BenchTarget {
  /** The packed package's node_modules (scripts/packed.ts), linked into the program's folder. */
  modules: string;
  baseUrl: string;
  apiKey: string;
  count: number;
}

/**
 * The stack `name` of bench/programs/`program`, in a fresh copy of the program, configured with
 * `count` and the server's URL and key; `env` is the stack's workspace environment (its Pulumi
 * commands read it, so a change before a command applies to that command).
 */
export async function benchStack(
  engine: BenchEngine,
  program: string,
  name: string,
  target: BenchTarget,
): Promise<{ stack: BenchStack; workDir: string; env: Record<string, string> }> {
  const workDir = prepareProgram(join(REPO_ROOT, "bench", "programs", program), {});
  symlinkSync(target.modules, join(workDir, "node_modules"), "dir");
  const stack = await engine.stack(workDir, name);
  await stack.setAllConfig({
    count: { value: String(target.count) },
    "uptime:baseUrl": { value: target.baseUrl },
    "uptime:apiKey": { value: target.apiKey, secret: true },
  });
  const env = (stack.workspace as unknown as { envVars: Record<string, string> }).envVars;
  return { stack, workDir, env };
}
