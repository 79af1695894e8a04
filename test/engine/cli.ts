import { execFile } from "node:child_process";
import { join } from "node:path";
import { type OfflineEngine, REPO_ROOT } from "../../scripts/pulumi-engine";
import { expect } from "vitest";
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

/**
 * Runs `pulumi-uptime test` and expects it to pass, with a `pass` row for each resource named;
 * its output goes to `output` (for the checks that no secret shows in it).
 */
export async function expectTestPasses(
  engine: OfflineEngine,
  workDir: string,
  names: string[],
  output: string[],
): Promise<void> {
  const test = await cli(engine, workDir, ["test"]);
  output.push(test.stdout);
  expect(test.code, test.stdout).toBe(0);
  for (const name of names) expect(test.stdout).toMatch(new RegExp(`^${name}\\s+\\S+\\s+pass\\b`, "m"));
}

/** `pulumi-uptime drift --json` expected to find drift (exit code 2): the fields it names, by resource, and its output. */
export async function driftFields(
  engine: OfflineEngine,
  workDir: string,
): Promise<{ fields: Record<string, string[]>; stdout: string }> {
  const drift = await cli(engine, workDir, ["drift", "--json"]);
  const report = JSON.parse(drift.stdout) as DriftReport;
  expect(drift.code).toBe(2);
  return {
    fields: Object.fromEntries(report.resources.map((r) => [r.name, r.fields.map((f) => f.field)])),
    stdout: drift.stdout,
  };
}
