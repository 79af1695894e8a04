import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

/** A fault to answer instead of forwarding: `times` requests matching `match` get `status`. */
export interface Fault {
  match: (method: string, path: string) => boolean;
  status: number;
  times: number;
  headers?: Record<string, string>;
  /** Forward first and answer the fault after the server did the work (a lost response). */
  afterForward?: boolean;
}

/**
 * A small HTTP proxy in front of a real server that injects faults (429s, 5xx) before
 * forwarding, and counts what it saw: to test a client's retries without mocking it.
 */
export interface FaultProxy {
  url: string;
  faults: Fault[];
  /** Requests seen, as `METHOD path STATUS`, faulted or not. */
  seen: string[];
  close: () => Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { url: "", faults: [], seen: [], close: async () => undefined };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const fault = proxy.faults.find((f) => f.times > 0 && f.match(method, path));
    const answerFault = () => {
      if (!fault) return;
      fault.times--;
      proxy.seen.push(`${method} ${path.split("?")[0]} ${fault.status}`);
      res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
      res.end(JSON.stringify({ ok: false, error: { code: fault.status === 429 ? "rate_limited" : "internal_error", message: "injected" } }));
    };
    if (fault && !fault.afterForward) return answerFault();
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const upstream = await request(`${target}${path}`, {
      method: method as "GET",
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await upstream.body.arrayBuffer());
    if (fault) return answerFault();
    proxy.seen.push(`${method} ${path.split("?")[0]} ${upstream.statusCode}`);
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(upstream.headers)) {
      if (v !== undefined && !["connection", "keep-alive", "transfer-encoding"].includes(k)) out[k] = v;
    }
    res.writeHead(upstream.statusCode, out).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise((resolve) => server.close(() => resolve()));
  return proxy;
}
