import "../node-version";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalWorkspace, type PulumiCommand } from "@pulumi/pulumi/automation";
import { REPORT_ENV, REPORT_LOCATION_ENV, REPORT_TAG_ENV, type ReportLine } from "../runtime/test-checks";

export type { ReportLine as MonitorTestRow } from "../runtime/test-checks";

/** Which stack's program to test, and how to run the CLI. */
export interface TestOptions {
  stackName: string;
  /** The Pulumi program's folder. */
  workDir: string;
  /** `tag:NAME`: only the monitors with this tag. */
  filter?: string;
  /** The checker location that runs each check (an agent location's name); default the server's built-in checker. */
  location?: string;
  /** A specific CLI; by default `pulumi` from PATH. */
  pulumiCommand?: PulumiCommand;
  envVars?: Record<string, string>;
}

/** The dry run of every monitor of a stack's program. */
export interface TestReport {
  stack: string;
  /** What the report is of, as its summary line starts; default `Stack <stack>`. */
  title?: string;
  /** One row per monitor, in resource-name order. */
  monitors: ReportLine[];
  /** No monitor failed (skipped ones and heartbeats aside). */
  passed: boolean;
}

/** The tag of `--filter tag:NAME`; an error naming the option for anything else. */
export function tagOfFilter(filter: string | undefined): string | undefined {
  if (filter === undefined) return undefined;
  const m = /^tag:(.+)$/.exec(filter);
  if (!m) throw new Error(`--filter must be tag:NAME, got "${filter}"`);
  return m[1];
}

/** The report of the lines the provider wrote (the last line of a monitor wins). */
export function reportOf(stack: string, lines: readonly ReportLine[]): TestReport {
  const byName = new Map(lines.map((l) => [l.resource, l]));
  const monitors = [...byName.values()].sort((a, b) => a.resource.localeCompare(b.resource));
  return { stack, monitors, passed: !monitors.some((m) => m.outcome === "fail" || m.outcome === "error") };
}

/** The exit code: 0 all passed, 2 a monitor failed, 1 a dry run could not run. */
export function exitCodeOf(report: TestReport): 0 | 1 | 2 {
  if (report.monitors.some((m) => m.outcome === "error")) return 1;
  return report.monitors.some((m) => m.outcome === "fail") ? 2 : 0;
}

/**
 * Previews the stack (nothing is written) with the provider told to run each monitor's check
 * once, as the program resolves it for this stack, and to write the outcome to a file (see
 * runtime/test-checks.ts): secrets reach the server from the provider, never this process.
 */
export async function testMonitors(options: TestOptions): Promise<TestReport> {
  const tag = tagOfFilter(options.filter);
  const dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-test-"));
  const file = join(dir, "report.jsonl");
  try {
    const envVars = {
      ...options.envVars,
      [REPORT_ENV]: file,
      ...(tag ? { [REPORT_TAG_ENV]: tag } : {}),
      ...(options.location ? { [REPORT_LOCATION_ENV]: options.location } : {}),
    };
    const stack = await LocalWorkspace.selectStack(
      { stackName: options.stackName, workDir: options.workDir },
      { pulumiCommand: options.pulumiCommand, envVars },
    );
    await stack.preview();
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      // No monitor wrote a line: the program declares none (or none with the tag).
    }
    const lines = text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ReportLine);
    return reportOf(options.stackName, lines);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cell = (v: string | null) => (v === null || v === "" ? "-" : v);

/** The report as a table for a terminal or a CI log. */
export function formatTest(report: TestReport): string {
  const title = report.title ?? `Stack ${report.stack}`;
  if (report.monitors.length === 0) return `${title}: no monitors to test.\n`;
  const header = ["MONITOR", "TARGET", "RESULT", "FAILING ASSERTION", "TIME"];
  const ms = (v: number | null) => (v === null ? "-" : `${v} ms`);
  const rows = report.monitors.flatMap((m) => [
    [
      m.resource,
      cell(m.target),
      m.outcome === "skipped" ? `skipped: ${m.failure}` : m.outcome,
      m.outcome === "skipped" ? "-" : cell(m.failure),
      ms(m.ms),
    ],
    // A multi-step monitor: a row per step under its own.
    ...(m.steps ?? []).map((st, i) => [`  ${i + 1}. ${st.name}`, "", st.outcome, cell(st.failure), ms(st.ms)]),
    // A browser monitor's failed run: where its screenshot is.
    ...(m.screenshot ? [[`  screenshot: ${m.screenshot}`, "", "", "", ""]] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] as number))
      .join("  ")
      .trimEnd();
  const counts = ["pass", "degraded", "fail", "skipped", "nothing to run", "error"]
    .map((o) => [o, report.monitors.filter((m) => m.outcome === o).length] as const)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${n} ${o}`);
  return `${[line(header), ...rows.map(line)].join("\n")}\n\n${title}: ${counts.join(", ")}.\n`;
}
