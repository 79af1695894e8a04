import { connect } from "node:net";
import { type Dispatcher, request } from "undici";
import { ASSERTION_DEFAULTS, BODY_LIMIT_BYTES, type CheckTimings, type ErrorClass, type Monitor } from "../../api";
import { assertTargetAllowed, type Resolve, safeLookup } from "../outbound";
import type { AssertionEvaluator } from "./assertion-pool";
import type { AssertionOutcome } from "./evaluate-worker";
import { errorClassOf } from "./error-class";
import { timingsOf, withPhases } from "./timings";

/** The outcome of one check, and why it failed. */
export interface ProbeResult {
  up: boolean;
  response_time_ms: number | null;
  status_code: number | null;
  error: string | null;
  /** Up, but slower than `degraded_response_ms` (set by the dispatcher). */
  degraded?: boolean;
  /** What kind of failure it was; null when up. */
  error_class?: ErrorClass | null;
  /** Each assertion's outcome, in order. */
  assertions?: AssertionOutcome[];
  /** The phases measured (see `CheckTimings`). */
  timings?: CheckTimings | null;
}

export interface ProbeContext {
  /** Dispatcher for probes that follow redirects, and one that does not. */
  follow: Dispatcher;
  direct: Dispatcher;
  allowPrivate: boolean;
  /** The resolver of TCP checks (the system's unless a test injects one). */
  resolve?: Resolve;
  /** Judges assertions (off the event loop when they read the body); without it, they are not judged. */
  evaluator?: AssertionEvaluator;
}

/** Whether `code` is one of the expected codes or classes (`"2xx"`). */
export function statusExpected(code: number, expected: readonly (number | string)[]): boolean {
  return expected.some((e) => (typeof e === "number" ? e === code : e[0] === String(code)[0]));
}

/** Runs one check of `monitor`: HTTP(S) (with keyword and assertions) via undici, TCP by connecting. */
export async function probe(ctx: ProbeContext, monitor: Monitor): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const url = new URL(monitor.url ?? "");
    assertTargetAllowed(url, ctx.allowPrivate);
    if (monitor.type === "tcp") {
      await tcpConnect(url.hostname, Number(url.port), monitor.timeout_sec * 1000, ctx);
      const ms = elapsed();
      return { up: true, response_time_ms: ms, status_code: null, error: null, error_class: null, timings: { ...NO_TIMINGS, connect_ms: ms, total_ms: ms } };
    }
    return await probeHttp(ctx, monitor, url, started);
  } catch (err) {
    const e = err as Error & { code?: string };
    const timedOut = e.name === "TimeoutError" || e.code === "UND_ERR_HEADERS_TIMEOUT" || e.code === "UND_ERR_BODY_TIMEOUT";
    return {
      up: false,
      response_time_ms: null,
      status_code: null,
      error: timedOut ? `timed out after ${monitor.timeout_sec} s` : e.message || String(err),
      error_class: timedOut ? "timeout" : errorClassOf(e),
      timings: { ...NO_TIMINGS, total_ms: elapsed() },
    };
  }
}

/** A check that got no response: only its total is known. */
const NO_TIMINGS: CheckTimings = { dns_ms: null, connect_ms: null, tls_ms: null, first_byte_ms: null, total_ms: null };

async function probeHttp(ctx: ProbeContext, monitor: Monitor, url: URL, started: number): Promise<ProbeResult> {
  const timeout = monitor.timeout_sec * 1000;
  const assertions = monitor.assertions ?? ASSERTION_DEFAULTS.assertions;
  const { result, phases } = withPhases(started, () =>
    request(url, {
      method: monitor.method,
      headers: { "user-agent": "pulumi-uptime-checker", ...monitor.headers },
      body: monitor.body ?? undefined,
      dispatcher: monitor.follow_redirects ? ctx.follow : ctx.direct,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout),
    }),
  );
  const res = await result;
  const firstByte = Math.round(performance.now() - started);
  const readBody = monitor.type === "keyword" || assertions.some((a) => a.source === "json_body" || a.source === "text_body");
  let text: string | null = null;
  if (readBody) text = await readLimited(res.body, BODY_LIMIT_BYTES);
  else await res.body.dump();
  const total = Math.round(performance.now() - started);
  const timings = timingsOf(phases, firstByte, total);
  const base = { response_time_ms: total, status_code: res.statusCode, timings };
  const outcomes = ctx.evaluator
    ? await ctx.evaluator.evaluate(assertions, { status_code: res.statusCode, response_time_ms: total, headers: flatHeaders(res.headers), body: text })
    : [];
  const fail = (error: string, error_class: ErrorClass): ProbeResult => ({ ...base, up: false, error, error_class, assertions: outcomes });
  if (!statusExpected(res.statusCode, monitor.expected_status_codes)) return fail(`unexpected status ${res.statusCode}`, "http");
  if (monitor.type === "keyword" && monitor.keyword !== null) {
    const found = monitor.keyword_case_sensitive
      ? (text ?? "").includes(monitor.keyword)
      : (text ?? "").toLowerCase().includes(monitor.keyword.toLowerCase());
    if (!found) return fail(`keyword "${monitor.keyword}" not found`, "assertion");
  }
  const failed = outcomes.filter((o) => !o.pass);
  if (failed.length > 0) return fail(`${failed.length} of ${outcomes.length} assertions failed: ${describeFailure(failed[0] as AssertionOutcome)}`, "assertion");
  return { ...base, up: true, error: null, error_class: null, assertions: outcomes };
}

/** One failed assertion in words: `json_body $.status equals "ok": found "down"`. */
export function describeFailure(o: AssertionOutcome): string {
  const subject = [o.source, o.property, o.comparison, o.target === null ? null : JSON.stringify(o.target)].filter((p) => p !== null).join(" ");
  return o.reason ? `${subject}: ${o.reason}` : `${subject}: found ${o.actual === null ? "nothing" : JSON.stringify(o.actual.slice(0, 80))}`;
}

/** Response headers as assertions read them: names lower-cased, repeats joined. */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

async function readLimited(body: Dispatcher.ResponseData["body"], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tcpConnect(host: string, port: number, timeoutMs: number, ctx: ProbeContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const lookup = safeLookup(ctx.allowPrivate, ctx.resolve);
    const socket = connect({ host: host.replace(/^\[|\]$/g, ""), port, timeout: timeoutMs, lookup: lookup as never });
    socket.once("connect", () => {
      socket.destroy();
      resolve();
    });
    socket.once("timeout", () => {
      socket.destroy();
      reject(Object.assign(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`), { name: "TimeoutError" }));
    });
    socket.once("error", (err) => {
      socket.destroy();
      reject(err);
    });
  });
}
