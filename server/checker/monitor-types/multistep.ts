import { type ErrorClass, STEP_BODY_LIMIT_BYTES, type StepResult, type StoredStep } from "../../../api";
import { assertTargetAllowed } from "../../outbound";
import type { CheckOutcome } from "../../store/heartbeats";
import type { AssertionOutcome } from "../evaluate-worker";
import { exchange } from "../http-exchange";
import type { CheckedMonitor } from "../monitor-fields";
import { describeFailure, failure, NO_TIMINGS, type ProbeContext, statusExpected } from "../probe";
import { RunVariables } from "../step-variables";
import type { MonitorType } from "./monitor-type";

/** A clean-up step still gets this long when the run's timeout has passed. */
const CLEANUP_GRACE_MS = 1_000;

/**
 * Multi-step monitors: the steps run in order within the monitor's `timeout_sec`, each step's
 * extractions feeding `{{variables}}` of later ones. After a failed step the others are skipped,
 * except clean-up steps, which still run. The heartbeat carries each step's outcome; the run's
 * time is the sum of its steps'; values of secret variables are masked in all it reports.
 */
export const multistepType: MonitorType = {
  name: "multistep",
  probes: true,
  check: (monitor, ctx) => runSteps(ctx.probe, monitor),
};

async function runSteps(ctx: ProbeContext, monitor: CheckedMonitor): Promise<CheckOutcome> {
  const vars = new RunVariables(monitor.variables);
  const deadline = performance.now() + monitor.timeout_sec * 1000;
  const results: StepResult[] = [];
  let failed: { index: number; result: StepResult } | undefined;
  let total = 0;
  for (const [index, step] of monitor.steps.entries()) {
    if (failed && !step.cleanup) {
      results.push({
        name: step.name,
        status: "skipped",
        cleanup: step.cleanup,
        status_code: null,
        response_time_ms: null,
        error: null,
        error_class: null,
        assertions: [],
      });
      continue;
    }
    const budgetMs = Math.max(deadline - performance.now(), step.cleanup ? CLEANUP_GRACE_MS : 0);
    const result =
      budgetMs <= 0 ? timedOut(step, monitor.timeout_sec) : await runStep(ctx, step, vars, budgetMs, monitor);
    total += result.response_time_ms ?? 0;
    results.push(result);
    if (result.status === "failed" && !failed) failed = { index, result };
  }
  const last = results.findLast((r) => r.status !== "skipped");
  const base = {
    response_time_ms: Math.round(total),
    timings: { ...NO_TIMINGS, total_ms: Math.round(total) },
    steps: results,
    assertions: [],
  };
  if (!failed) return { ...base, up: true, status_code: last?.status_code ?? null, error: null, error_class: null };
  const { index, result } = failed;
  return {
    ...base,
    up: false,
    status_code: result.status_code,
    error: `step ${index + 1} "${step(monitor, index)}": ${result.error}`,
    error_class: result.error_class,
  };
}

const step = (monitor: CheckedMonitor, index: number) => (monitor.steps[index] as StoredStep).name;

function timedOut(s: StoredStep, timeoutSec: number): StepResult {
  return {
    name: s.name,
    status: "failed",
    cleanup: s.cleanup,
    status_code: null,
    response_time_ms: null,
    error: `not run: the run's ${timeoutSec} s were spent`,
    error_class: "timeout",
    assertions: [],
  };
}

async function runStep(
  ctx: ProbeContext,
  s: StoredStep,
  vars: RunVariables,
  budgetMs: number,
  monitor: CheckedMonitor,
): Promise<StepResult> {
  const started = performance.now();
  const result = (status: StepResult["status"], fields: Partial<StepResult>): StepResult => ({
    name: s.name,
    status,
    cleanup: s.cleanup,
    status_code: null,
    response_time_ms: null,
    error: null,
    error_class: null,
    assertions: [],
    ...fields,
  });
  try {
    const url = new URL(vars.fill(s.url));
    assertTargetAllowed(url, ctx.allowPrivate);
    const headers = Object.fromEntries(Object.entries(s.headers).map(([k, v]) => [k, vars.fill(v)]));
    const body = s.body === null ? null : vars.fill(s.body);
    const req = {
      url,
      method: s.method,
      headers,
      body,
      timeout_sec: budgetMs / 1000,
      follow_redirects: monitor.follow_redirects,
    };
    const res = await exchange(ctx, req, started, STEP_BODY_LIMIT_BYTES);
    // Extracted first: a secret extraction is masked in what this step reports too.
    const missing = vars.extract(s.extract, res);
    const judged = ctx.evaluator ? await ctx.evaluator.evaluate(s.assertions, res) : [];
    const assertions = judged.map((a) => ({ ...a, actual: vars.mask(a.actual) }));
    const seen = { status_code: res.status_code, response_time_ms: res.response_time_ms, assertions };
    const fail = (error: string, error_class: ErrorClass) =>
      result("failed", { ...seen, error: vars.mask(error), error_class });
    if (!statusExpected(res.status_code, s.statuses)) return fail(`unexpected status ${res.status_code}`, "http");
    const bad = assertions.filter((a) => !a.pass);
    if (bad.length > 0)
      return fail(
        `${bad.length} of ${assertions.length} assertions failed: ${describeFailure(bad[0] as AssertionOutcome)}`,
        "assertion",
      );
    if (missing.length > 0) return fail(`extract found nothing for ${missing.join(", ")}`, "assertion");
    return result("passed", seen);
  } catch (err) {
    const f = failure(err, monitor.timeout_sec, started);
    const unfilled = (err as { code?: string }).code === "ERR_STEP_VARIABLE";
    return result("failed", {
      error: vars.mask(f.error),
      error_class: unfilled ? "assertion" : (f.error_class ?? null),
      response_time_ms: null,
    });
  }
}
