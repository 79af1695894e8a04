import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { type Decision, emptyCounts, type Storm, type StormCounts, stormDecider } from "./storm";

export type { Storm, StormCounts } from "./storm";

/**
 * A fault a proxy injects into the requests `match` selects (all when left out), at most `times`
 * times (`Infinity` for ever), each with probability `rate` (default 1).
 */
export interface Fault {
  match?: (method: string, path: string) => boolean;
  times: number;
  rate?: number;
  /** Answer this status instead of the server's (429, 5xx …) with `headers`. */
  status?: number;
  headers?: Record<string, string>;
  /** Close the connection without an answer. */
  drop?: boolean;
  /** Forward first and fault after the server did the work: a lost response. */
  afterForward?: boolean;
  /** Wait this long before forwarding (latency); alone, the request then goes through. */
  delayMs?: number;
}

/**
 * A small HTTP proxy in front of a real server that injects faults (latency, 429s, 5xx, dropped
 * responses) and records what it saw: to test a client's retries without mocking it.
 */
export interface FaultProxy {
  url: string;
  /** The rules, first match first; push to add, set `length = 0` to clear. */
  faults: Fault[];
  /** Random faults on every request not matched by a rule, while set (see `Storm`). */
  storm?: Storm;
  /** What the proxy did: requests, forwards and each kind of fault. */
  counts: StormCounts;
  /** Requests seen, as `METHOD path STATUS` (`DROPPED` for a dropped one), faulted or not. */
  seen: string[];
  close: () => Promise<void>;
}

const faultError = (status: number) =>
  status === 429
    ? { code: "rate_limited", message: "Too many requests" }
    : { code: "internal_error", message: "Internal error" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const applies = (f: Fault, method: string, path: string) =>
  f.times > 0 && (f.match?.(method, path) ?? true) && (f.rate === undefined || Math.random() < f.rate);

/** Starts a fault proxy on a loopback port in front of `target` (a base URL). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const counts = emptyCounts();
  const proxy: FaultProxy = { url: "", faults: [], counts, seen: [], close: async () => undefined };
  const decide = stormDecider(() => proxy.storm);
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Node ignores the handler's promise; the handler answers every request itself
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const line = (status: string | number) => proxy.seen.push(`${method} ${path.split("?")[0]} ${status}`);
    counts.requests++;
    let delay = 0;
    for (const f of proxy.faults) {
      if (f.status === undefined && !f.drop && f.delayMs && applies(f, method, path)) {
        f.times--;
        delay += f.delayMs;
      }
    }
    if (delay) await sleep(delay);
    const fault = proxy.faults.find((f) => (f.status !== undefined || f.drop) && applies(f, method, path));
    const answerFault = (f: Fault) => {
      f.times--;
      if (f.drop) {
        line("DROPPED");
        res.socket?.destroy();
        return;
      }
      answer(f.status as number, f.headers);
    };
    const answer = (status: number, extra: Record<string, string> = {}) => {
      line(status);
      if (status === 429) counts.rateLimited++;
      // A request id, as the server's own error answers carry one: clients print it.
      const requestId = `req_proxy${String(counts.requests).padStart(6, "0")}`;
      res.writeHead(status, { "content-type": "application/json", "x-request-id": requestId, ...extra });
      res.end(JSON.stringify({ ok: false, error: { ...faultError(status), request_id: requestId } }));
    };
    if (fault && !fault.afterForward) return answerFault(fault);
    const decision: Decision = fault ? { kind: "forward", latencyMs: 0 } : decide();
    if (decision.latencyMs) await sleep(decision.latencyMs);
    if (decision.kind === "429") return answer(429, { "retry-after": "1" });
    if (decision.kind === "error-before") return (counts.serverErrors++, answer(decision.status as number));
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    try {
      counts.forwarded++;
      const upstream = await request(`${target}${path}`, {
        method: method as "GET",
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.body.arrayBuffer());
      if (fault) return answerFault(fault);
      if (decision.kind === "error-after") return (counts.serverErrorsAfterWork++, answer(decision.status as number));
      if (decision.kind === "reset") {
        counts.resets++;
        line("RESET");
        return void req.socket.destroy();
      }
      line(upstream.statusCode);
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(upstream.headers)) {
        if (v !== undefined && !["connection", "keep-alive", "transfer-encoding"].includes(k)) out[k] = v;
      }
      res.writeHead(upstream.statusCode, out).end(body);
    } catch {
      line(502);
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
