import { connect } from "node:net";
import { type Dispatcher, request } from "undici";
import type { Monitor } from "../../api";
import { assertTargetAllowed, type Resolve, safeLookup } from "../outbound";

/** The outcome of one check. */
export interface ProbeResult {
  up: boolean;
  response_time_ms: number | null;
  status_code: number | null;
  error: string | null;
}

/** How much of a body a keyword check reads. */
const KEYWORD_BODY_LIMIT = 1024 * 1024;

export interface ProbeContext {
  /** Dispatcher for probes that follow redirects, and one that does not. */
  follow: Dispatcher;
  direct: Dispatcher;
  allowPrivate: boolean;
  /** The resolver of TCP checks (the system's unless a test injects one). */
  resolve?: Resolve;
}

/** Whether `code` is one of the expected codes or classes (`"2xx"`). */
export function statusExpected(code: number, expected: readonly (number | string)[]): boolean {
  return expected.some((e) => (typeof e === "number" ? e === code : e[0] === String(code)[0]));
}

/** Runs one check of `monitor`: HTTP(S) (with keyword) via undici, TCP by connecting. */
export async function probe(ctx: ProbeContext, monitor: Monitor): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const down = (error: string, status_code: number | null = null): ProbeResult => ({
    up: false,
    response_time_ms: status_code === null ? null : elapsed(),
    status_code,
    error,
  });
  try {
    const url = new URL(monitor.url ?? "");
    assertTargetAllowed(url, ctx.allowPrivate);
    if (monitor.type === "tcp") {
      await tcpConnect(url.hostname, Number(url.port), monitor.timeout_sec * 1000, ctx);
      return { up: true, response_time_ms: elapsed(), status_code: null, error: null };
    }
    const timeout = monitor.timeout_sec * 1000;
    const res = await request(url, {
      method: monitor.method,
      headers: { "user-agent": "pulumi-uptime-checker", ...monitor.headers },
      body: monitor.body ?? undefined,
      dispatcher: monitor.follow_redirects ? ctx.follow : ctx.direct,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout),
    });
    let text = "";
    if (monitor.type === "keyword") text = await readLimited(res.body, KEYWORD_BODY_LIMIT);
    else await res.body.dump();
    if (!statusExpected(res.statusCode, monitor.expected_status_codes)) {
      return down(`unexpected status ${res.statusCode}`, res.statusCode);
    }
    if (monitor.type === "keyword" && monitor.keyword !== null) {
      const found = monitor.keyword_case_sensitive
        ? text.includes(monitor.keyword)
        : text.toLowerCase().includes(monitor.keyword.toLowerCase());
      if (!found) return down(`keyword "${monitor.keyword}" not found`, res.statusCode);
    }
    return { up: true, response_time_ms: elapsed(), status_code: res.statusCode, error: null };
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.name === "TimeoutError" || e.code === "UND_ERR_HEADERS_TIMEOUT" || e.code === "UND_ERR_BODY_TIMEOUT") {
      return down(`timed out after ${monitor.timeout_sec} s`);
    }
    return down(e.message || String(err));
  }
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
