import { BROWSER_EVIDENCE_LIMITS as LIMITS, type BrowserEvidence, type ErrorClass } from "../../../api";
import type { CheckOutcome } from "../../store/heartbeats";
import { type BrowserRun, runBrowserCheck } from "../browser/run";
import type { CheckedMonitor } from "../monitor-fields";
import { NO_TIMINGS, type ProbeContext } from "../probe";
import { RunVariables } from "../step-variables";
import type { MonitorType } from "./monitor-type";

/**
 * Browser monitors: the monitor's Playwright script runs in a sandboxed Chromium (see
 * ../browser/), within `timeout_sec`, its requests under the outbound policy of the place that runs
 * it. Up when the script ends without an error and no request was refused. A failed run keeps its
 * evidence: the error, the script's failing line, the page's console errors, the steps' timings
 * and a screenshot. The monitor's `variables` are the script's `process.env`, masked in all of it.
 */
export const browserType: MonitorType = {
  name: "browser",
  probes: true,
  check: (monitor, ctx) => checkBrowser(monitor, ctx.probe),
};

/** Runs the monitor's script once and judges the run. */
export async function checkBrowser(monitor: CheckedMonitor, ctx: ProbeContext): Promise<CheckOutcome> {
  const vars = new RunVariables(monitor.variables);
  let run: BrowserRun;
  try {
    run = await runBrowserCheck(monitor.script ?? "", monitor.timeout_sec, ctx, {
      verifyTls: monitor.verify_tls,
      env: monitor.variables,
    });
  } catch (err) {
    return {
      up: false,
      response_time_ms: null,
      status_code: null,
      error: vars.mask((err as Error).message),
      error_class: "connect",
      timings: NO_TIMINGS,
    };
  }
  return judge(run, vars);
}

/** The heartbeat of `run`, every text masked by `vars`. */
export function judge(run: BrowserRun, vars: RunVariables): CheckOutcome {
  // The runner's result is the script's to write: every text and list is capped here.
  const mask = (t: unknown) => vars.mask(String(t).slice(0, 2000));
  const browser: BrowserEvidence = {
    failing_line: run.failing_line
      ? {
          line: Math.round(Number(run.failing_line.line)) || 0,
          text: mask(run.failing_line.text).slice(0, LIMITS.text),
        }
      : null,
    console_errors: run.console_errors.slice(0, LIMITS.entries).map((e) => mask(e).slice(0, LIMITS.text)),
    steps: run.steps.slice(0, LIMITS.entries).map((s) => ({
      name: mask(s.name).slice(0, LIMITS.stepName),
      duration_ms: Math.round(Number(s.duration_ms)) || 0,
      error: s.error === null ? null : mask(firstLine(String(s.error))).slice(0, LIMITS.text),
    })),
    url: run.url === null ? null : mask(run.url).slice(0, LIMITS.url),
    refused: run.refused,
    killed: run.killed,
    screenshot: run.png !== null,
  };
  const totalMs = Math.max(0, Math.round(Number(run.total_ms)) || 0);
  const timings = { ...NO_TIMINGS, total_ms: totalMs };
  const up = run.up && run.refused.length === 0 && run.killed === null;
  const base = { response_time_ms: totalMs, status_code: null, timings, browser, screenshot: up ? null : run.png };
  if (up) return { ...base, up: true, error: null, error_class: null };
  const where = run.failing_line ? ` (script line ${run.failing_line.line}: ${run.failing_line.text})` : "";
  const error = run.killed
    ? `sandbox: ${run.killed}`
    : run.refused.length > 0
      ? `${run.refused[0]}${run.error ? `; ${firstLine(run.error)}` : ""}`
      : `${summary(run.error ?? "the script failed")}${where}`;
  return { ...base, up: false, error: mask(error).slice(0, 1000), error_class: classOf(run) };
}

function classOf(run: BrowserRun): ErrorClass {
  if (run.timed_out || run.killed?.includes("timeout")) return "timeout";
  if (run.refused.length > 0) return "connect";
  if (/net::ERR_NAME_NOT_RESOLVED/.test(run.error ?? "")) return "dns";
  if (/net::ERR_(CERT|SSL)/.test(run.error ?? "")) return "tls";
  if (/net::ERR_/.test(run.error ?? "") || run.killed) return "connect";
  return "assertion";
}

/** The first line of a message and Playwright's own lines of what it expected and found, without the call log. */
function summary(text: string): string {
  const [head, ...rest] = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const facts = rest
    .slice(0, rest.indexOf("Call log:") === -1 ? rest.length : rest.indexOf("Call log:"))
    .filter((l) => /^(Locator|Expected|Received|Timeout|Error):/.test(l));
  return [head ?? text, ...facts].join("; ");
}

/** The first line of a message (Playwright's add their call log below it). */
const firstLine = (text: string) =>
  text
    .split("\n")
    .find((l) => l.trim() !== "")
    ?.trim() ?? text;
