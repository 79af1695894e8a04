import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
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
 * Random faults on every request, drawn from a seeded generator (the same seed replays the same
 * storm): probabilities are per request, 0..1.
 */
export interface Storm {
  seed: number;
  /** A 502/503/500 answer; half of them after the server did the work (a lost response). */
  serverError: number;
  /** Starts a burst: this and the next `burstLength - 1` requests get a 429 with `Retry-After: 1`. */
  rateLimitBurst: number;
  burstLength: number;
  /** The connection is cut after the server did the work: the client never sees the answer. */
  resetAfterForward: number;
  /** Each request waits 0..maxLatencyMs before it is forwarded. */
  maxLatencyMs: number;
}

/** What the storm did, per kind of fault. */
export interface StormCounts {
  requests: number;
  forwarded: number;
  serverErrors: number;
  serverErrorsAfterWork: number;
  rateLimited: number;
  resets: number;
}

/**
 * A small HTTP proxy in front of a real server that injects faults (429s, 5xx, cut connections,
 * latency) and counts what it saw: to test a client's retries without mocking it.
 */
export interface FaultProxy {
  url: string;
  faults: Fault[];
  /** Random faults on every request while set. */
  storm?: Storm;
  counts: StormCounts;
  /** Requests seen, as `METHOD path STATUS`, faulted or not (`RESET` for a cut connection). */
  seen: string[];
  close: () => Promise<void>;
}

/** mulberry32: a tiny seeded generator, so a failing storm can be replayed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Decision = { kind: "forward" | "error-before" | "error-after" | "429" | "reset"; latencyMs: number; status?: number };

function stormDecider(proxy: FaultProxy): () => Decision {
  let random: (() => number) | undefined;
  let seed: number | undefined;
  let burstLeft = 0;
  return () => {
    const storm = proxy.storm;
    if (!storm) return { kind: "forward", latencyMs: 0 };
    if (seed !== storm.seed) [random, seed] = [generator(storm.seed), storm.seed];
    const r = random as () => number;
    const latencyMs = Math.floor(r() * storm.maxLatencyMs);
    if (burstLeft > 0) return burstLeft--, { kind: "429", latencyMs };
    const roll = r();
    let edge = storm.serverError;
    if (roll < edge) return { kind: r() < 0.5 ? "error-before" : "error-after", latencyMs, status: [500, 502, 503][Math.floor(r() * 3)] };
    if (roll < (edge += storm.rateLimitBurst)) return (burstLeft = storm.burstLength - 1), { kind: "429", latencyMs };
    if (roll < (edge += storm.resetAfterForward)) return { kind: "reset", latencyMs };
    return { kind: "forward", latencyMs };
  };
}

const errorBody = (status: number, requestId: string) =>
  JSON.stringify({
    ok: false,
    error: { code: status === 429 ? "rate_limited" : "internal_error", message: status === 429 ? "Too many requests" : "Internal error", request_id: requestId },
  });

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const counts: StormCounts = { requests: 0, forwarded: 0, serverErrors: 0, serverErrorsAfterWork: 0, rateLimited: 0, resets: 0 };
  const proxy: FaultProxy = { url: "", faults: [], counts, seen: [], close: async () => undefined };
  const decide = stormDecider(proxy);

  const forward = async (req: IncomingMessage, body: Buffer[]) => {
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    counts.forwarded++;
    const upstream = await request(`${target}${req.url ?? "/"}`, {
      method: (req.method ?? "GET") as "GET",
      headers,
      body: body.length ? Buffer.concat(body) : undefined,
    });
    return { status: upstream.statusCode, headers: upstream.headers, body: Buffer.from(await upstream.body.arrayBuffer()) };
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const line = (status: number | string) => proxy.seen.push(`${method} ${path.split("?")[0]} ${status}`);
    counts.requests++;
    const fault = proxy.faults.find((f) => f.times > 0 && f.match(method, path));
    const answer = (status: number, headers: Record<string, string> = {}) => {
      line(status);
      const requestId = `req_proxy${String(counts.requests).padStart(6, "0")}`;
      res.writeHead(status, { "content-type": "application/json", "x-request-id": requestId, ...headers }).end(errorBody(status, requestId));
    };
    if (fault) {
      fault.times--;
      if (fault.afterForward) await forward(req, chunks);
      return answer(fault.status, fault.headers);
    }
    const decision = decide();
    if (decision.latencyMs) await new Promise((r) => setTimeout(r, decision.latencyMs));
    if (decision.kind === "429") return counts.rateLimited++, answer(429, { "retry-after": "1" });
    if (decision.kind === "error-before") return counts.serverErrors++, answer(decision.status as number);
    const upstream = await forward(req, chunks);
    if (decision.kind === "error-after") return counts.serverErrorsAfterWork++, answer(decision.status as number);
    if (decision.kind === "reset") {
      counts.resets++;
      line("RESET");
      return void req.socket.destroy();
    }
    line(upstream.status);
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(upstream.headers)) {
      if (v !== undefined && !["connection", "keep-alive", "transfer-encoding"].includes(k)) out[k] = v;
    }
    res.writeHead(upstream.status, out).end(upstream.body);
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
