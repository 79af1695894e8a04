/**
 * Dry runs of monitors inside the engine: `uptime:testChecks` (a preview or an up runs the check
 * of each monitor being created or changed, and a failing one fails it), and the report that
 * `pulumi-uptime test` reads (every monitor of the program, run once, written to a file). Both run
 * in the provider's `check`, the one place that sees every monitor's inputs as the program
 * resolves them for the stack, secrets included: the secrets go to the server, and only the
 * outcome is written or shown.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failedAssertion, type MonitorTestResult } from "../../api";
import { clientFor } from "../client/client";
import { type PartialConnection, resolveConnection } from "../client/connection";
import { dryRunMonitor } from "../client/dry-run";
import { type Failure, isUnknown, type Props, same } from "../kinds/values";
import type { Kind } from "../kinds/kind";
import { DRY_RUN_INPUT, type DryRunInput } from "./dry-run-input";

/** Set by `pulumi-uptime test`: the file each monitor's outcome is appended to, one JSON line each. */
export const REPORT_ENV = "PULUMI_UPTIME_TEST_REPORT";
/** Set by `pulumi-uptime test --filter tag:NAME`: only monitors with this tag are run. */
export const REPORT_TAG_ENV = "PULUMI_UPTIME_TEST_TAG";
/** Set by `pulumi-uptime test --location NAME`: the checker location that runs each check. */
export const REPORT_LOCATION_ENV = "PULUMI_UPTIME_TEST_LOCATION";

/** One monitor's line of the report (no headers, no body, the target without its query). */
export interface ReportLine {
  resource: string;
  target: string | null;
  /** `pass`, `degraded`, `fail`, `skipped` (inputs unknown until `pulumi up`) or `nothing to run` (heartbeat). */
  outcome: "pass" | "degraded" | "fail" | "skipped" | "nothing to run" | "error";
  /** What failed: the first failed assertion, else the error; null when nothing did. */
  failure: string | null;
  /** How long the check took, in ms. */
  ms: number | null;
  tags: string[];
  /** multistep monitors: one row per step, in order; browser monitors: one per test and step. */
  steps?: StepLine[];
  /** browser monitors: where the failed run's screenshot was saved (a PNG). */
  screenshot?: string;
}

/** One step of a multi-step monitor's dry run. */
export interface StepLine {
  name: string;
  /** `pass`, `fail`, or `skipped` (an earlier step failed and this one is no clean-up). */
  outcome: "pass" | "fail" | "skipped";
  /** Why it failed (secret variables masked); null when it did not. */
  failure: string | null;
  ms: number | null;
}

const STEP_OUTCOME = { passed: "pass", failed: "fail", skipped: "skipped" } as const;

const SKIPPED = "depends on values known after `pulumi up`";
const truthy = (v: unknown) => v === true || (typeof v === "string" && /^(1|true|yes)$/i.test(v.trim()));

/** The target as shown: scheme, host and path; never credentials or the query string. */
export function shownTarget(url: unknown): string | null {
  if (typeof url !== "string") return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" && !url.endsWith("/") ? "" : u.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** The rows of a multi-step monitor's steps or a browser script's `test.step`s; undefined for other checks. */
export function stepLinesOf(result: MonitorTestResult): StepLine[] | undefined {
  return (
    result.steps?.map((st): StepLine => ({
      name: st.name,
      outcome: STEP_OUTCOME[st.status],
      failure: st.error,
      ms: st.response_time_ms,
    })) ??
    result.browser?.steps.map((st): StepLine => ({
      name: st.name,
      outcome: st.error === null ? "pass" : "fail",
      failure: st.error,
      ms: st.duration_ms,
    }))
  );
}

/** What the check of a monitor came to, for the report and for a failing preview. */
function lineOf(resource: string, inputs: Props, result: MonitorTestResult | undefined): ReportLine {
  // A multi-step monitor has no URL of its own: its first step's stands for it.
  const firstStep = Array.isArray(inputs.steps) ? (inputs.steps[0] as { url?: unknown } | undefined) : undefined;
  const base = {
    resource,
    target: shownTarget(inputs.url ?? firstStep?.url),
    tags: Array.isArray(inputs.tags) ? (inputs.tags as string[]) : [],
  };
  if (!result) return { ...base, outcome: "skipped", failure: SKIPPED, ms: null };
  const screenshot = result.screenshot_png ? saveScreenshot(resource, result.screenshot_png) : undefined;
  return { ...base, ...outcomeOf(result), ...(screenshot ? { screenshot } : {}) };
}

/** A check's result as a report line states it: its outcome, what failed, how long it took, its steps. */
export function outcomeOf(result: MonitorTestResult): Pick<ReportLine, "outcome" | "failure" | "ms" | "steps"> {
  const outcome =
    result.status === "up"
      ? "pass"
      : result.status === "down"
        ? "fail"
        : result.status === "degraded"
          ? "degraded"
          : "nothing to run";
  const failure = result.status === "down" ? (failedAssertion(result) ?? result.error) : null;
  const steps = stepLinesOf(result);
  return { outcome, failure, ms: result.timings?.total_ms ?? result.response_time_ms, ...(steps ? { steps } : {}) };
}

/** Saves a dry run's screenshot where the user can open it; returns its path. */
function saveScreenshot(resource: string, base64: string): string {
  const dir = join(tmpdir(), "pulumi-uptime-screenshots");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${resource.replace(/[^A-Za-z0-9_.-]/g, "_")}-${Date.now()}.png`);
  writeFileSync(file, Buffer.from(base64, "base64"));
  return file;
}

/** Whether the inputs are all known (the internal ones aside). */
const allKnown = (inputs: Props) => Object.entries(inputs).every(([k, v]) => k.startsWith("__") || !isUnknown(v));

/**
 * The dry run of a monitor's check, when the report or `uptime:testChecks` asks for it; failures
 * for `check` (only under `uptime:testChecks`, for a created or changed monitor not expected to
 * fail). `valid` is false when the inputs broke a rule: those failures are reported already.
 */
export async function testCheck(
  kind: Kind<{ id: string }>,
  olds: Props,
  news: Props,
  config: { connection: PartialConnection; testChecks?: unknown },
  valid: boolean,
): Promise<Failure[]> {
  const marker = (news[DRY_RUN_INPUT] ?? {}) as Partial<DryRunInput>;
  const resource = marker.resource ?? String(news.name ?? "?");
  const reportTo = process.env[REPORT_ENV];
  const gate = truthy(config.testChecks ?? process.env.UPTIME_TEST_CHECKS) && changedOrNew(kind, olds, news);
  if (!valid || (!reportTo && !gate)) return [];
  const tag = process.env[REPORT_TAG_ENV];
  if (reportTo && tag && !(Array.isArray(news.tags) && news.tags.includes(tag))) return [];
  let line: ReportLine;
  let result: MonitorTestResult | undefined;
  try {
    if (allKnown(news)) {
      const client = clientFor(resolveConnection(news.connection as PartialConnection | undefined, config.connection));
      const location = reportTo ? process.env[REPORT_LOCATION_ENV] || undefined : undefined;
      result = await dryRunMonitor(client, kind.createBody(news) as never, location);
    }
    line = lineOf(resource, news, result);
  } catch (err) {
    // The API's error names fields and codes, never the values sent.
    line = {
      ...lineOf(resource, news, undefined),
      outcome: "error",
      failure: `the dry run could not run: ${(err as Error).message}`,
    };
  }
  if (reportTo) {
    appendFileSync(reportTo, `${JSON.stringify(line)}\n`);
    return [];
  }
  if ((line.outcome !== "fail" && line.outcome !== "error") || marker.expectFailing === true) return [];
  // The engine prints the named property's value with the failure: only `assertions` is named,
  // never `url` or `headers`, which may carry credentials.
  const property = result?.error_class === "assertion" && failedAssertion(result) !== null ? "assertions" : "";
  const hint = "set `expectFailing: true` on it to let it through";
  return [
    { property, reason: `uptime:testChecks: the check of monitor "${resource}" failed: ${line.failure} (${hint})` },
  ];
}

/** A monitor being created (no old inputs) or whose fields change. */
function changedOrNew(kind: Kind<{ id: string }>, olds: Props, news: Props): boolean {
  if (Object.keys(olds ?? {}).length === 0) return true;
  const desired = kind.desired(news, undefined);
  const actual = kind.desired(olds, undefined);
  return Object.keys(desired).some((f) => !same(desired[f], actual[f]));
}
