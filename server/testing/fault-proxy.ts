import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

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
  /** Requests seen, as `METHOD path STATUS` (`DROPPED` for a dropped one), faulted or not. */
  seen: string[];
  close: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const applies = (f: Fault, method: string, path: string) =>
  f.times > 0 && (f.match?.(method, path) ?? true) && (f.rate === undefined || Math.random() < f.rate);

/** Starts a fault proxy on a loopback port in front of `target` (a base URL). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { url: "", faults: [], seen: [], close: async () => undefined };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const line = (status: string | number) => proxy.seen.push(`${method} ${path.split("?")[0]} ${status}`);
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
      line(f.status as number);
      res.writeHead(f.status as number, { "content-type": "application/json", ...f.headers });
      res.end(JSON.stringify({ ok: false, error: { code: f.status === 429 ? "rate_limited" : "internal_error", message: "injected" } }));
    };
    if (fault && !fault.afterForward) return answerFault(fault);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    try {
      const upstream = await request(`${target}${path}`, { method: method as "GET", headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const body = Buffer.from(await upstream.body.arrayBuffer());
      if (fault) return answerFault(fault);
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
