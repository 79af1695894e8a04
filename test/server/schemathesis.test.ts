import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countKinds, parseFailures, statedTotal, UNPREVENTABLE } from "./schemathesis-report";

const ROOT = join(__dirname, "../..");
const NODE = process.execPath;

/**
 * About two minutes on an idle machine at the 30 examples per operation of `npm test` (most of it
 * the coverage phase, which does not grow with the count); generous, because CI machines are
 * shared, and longer for the deeper count of `npm run fuzz`.
 */
const RUN_LIMIT_MS = 600_000 * Math.max(1, Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 30) / 30);

/** Runs a command to its end (killed after `limitMs`) and returns its exit status and output. */
function runFor(file: string, args: string[], limitMs: number): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

/** Whether this machine lets a test make its own network namespace (user namespaces on). */
function canIsolate(): boolean {
  return spawnSync("unshare", ["-rn", "true"], { stdio: "ignore" }).status === 0;
}

/** One Schemathesis run (see test/support/api-fuzz.mjs), its report kept in test-artifacts/. */
async function fuzz(bin: string, name: string, extra: string[]) {
  const fuzzer = [NODE, join(ROOT, "test/support/api-fuzz.mjs"), bin, ...extra];
  // Generated channel URLs are dialled by the channel test operation: inside a private network
  // namespace they reach nothing. Without one, that operation is left out rather than let loose.
  const isolated = canIsolate();
  const command = isolated
    ? ["unshare", ["-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", ...fuzzer]]
    : [fuzzer[0] as string, [...fuzzer.slice(1), "--exclude-path-regex", "/test$"]];
  const run = await runFor(command[0] as string, command[1] as string[], RUN_LIMIT_MS);
  const output = run.output;
  // The whole report, for reading after a run (CI keeps test-artifacts/).
  mkdirSync(join(ROOT, "test-artifacts"), { recursive: true });
  writeFileSync(join(ROOT, "test-artifacts", `${name}.txt`), output);
  const summary = output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^=+ .* in [\d.]+s =+$/.test(l) || /^(Selected: |Tested: |\d+ generated, )/.test(l));
  const failures = parseFailures(output);
  const table = Object.entries(countKinds(failures))
    .map(([kind, n]) => `${kind}=${n}`)
    .join(" ");
  process.stderr.write(`${name} (${isolated ? "network namespace" : "no namespace"}): ${summary.join(" | ")}\n`);
  process.stderr.write(`${name} failures by kind: ${table}\n`);
  return { ...run, failures };
}

describe("the API against its OpenAPI document (Schemathesis)", () => {
  it(
    "finds, with every check and no relaxation, only failures no schema can prevent",
    { timeout: RUN_LIMIT_MS + 60_000 },
    async () => {
      const { ensureSchemathesis } = await import("../../scripts/ensure-schemathesis.mjs");
      const bin = await ensureSchemathesis();
      // The whole API with a management key (the agent operations answer it 403), and beside it
      // the agent operations with an agent key.
      const runs = await Promise.all([
        fuzz(bin, "schemathesis", []),
        fuzz(bin, "schemathesis-agent", ["--agent-operations"]),
      ]);
      for (const { output, failures, status } of runs) {
        expect(output).toMatch(/Selected: \d+\/\d+/);
        // Every failure Schemathesis states was read, so none can hide from the classification.
        expect(failures.length, output.slice(-6000)).toBe(statedTotal(output));
        const unexplained = failures.filter((f) => f.kind === "unexplained");
        expect(unexplained, `allowed: ${Object.values(UNPREVENTABLE).join("; ")}`).toEqual([]);
        // Exit status 1 means failures were found (all of them allowed above); anything else is a crash.
        expect(status, output.slice(-6000)).toBe(failures.length === 0 ? 0 : 1);
      }
      // The agent run tested the two agent operations with a key they accept: Schemathesis only warns
      // when every answer is 401 or 403, and its positive cases then pass without reaching them.
      expect(runs[1]?.output).toMatch(/Tested: 2$/m);
      expect(runs[1]?.output).not.toMatch(/Authentication failed/);
    },
  );
});
