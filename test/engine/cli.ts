import { execFile } from "node:child_process";
import { join } from "node:path";
import { type OfflineEngine, REPO_ROOT } from "../../scripts/pulumi-engine";
import type { DriftReport } from "../../provider/commands/drift";

/** Runs the `pulumi-uptime` command built in dist/ against stack `dev` of the program in `workDir`: its exit code and output. */
export function cli(engine: OfflineEngine, workDir: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      join(REPO_ROOT, "node_modules/.bin/node"),
      [join(REPO_ROOT, "dist/provider/commands/cli.js"), ...args, "--stack", "dev", "--cwd", workDir],
      { env: { ...process.env, ...engine.envVars }, timeout: 150_000 },
      (err, stdout) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
}

/** Runs `pulumi-uptime drift --json` as a pipeline would (a process of its own): its exit code and report. */
export async function driftCommand(
  engine: OfflineEngine,
  workDir: string,
): Promise<{ code: number; report: DriftReport }> {
  const { code, stdout } = await cli(engine, workDir, ["drift", "--json"]);
  try {
    return { code, report: JSON.parse(stdout) as DriftReport };
  } catch {
    throw new Error(`drift exited ${code}: ${stdout}`);
  }
}
