import { createServer, type IncomingHttpHeaders } from "node:http";
import { listenOnLoopback } from "./listen";

/** A local site whose answer a test flips between healthy and failing. */
export interface Target {
  url: string;
  healthy: boolean;
  body: string;
  /** Content type of the healthy answer. */
  contentType: string;
  /** Extra headers of the healthy answer. */
  headers: Record<string, string>;
  /** How long the target waits before it answers. */
  delayMs: number;
  hits: number;
  /** The headers of the last request it received. */
  received: IncomingHttpHeaders;
  close: () => Promise<void>;
}

export async function startTarget(): Promise<Target> {
  const target: Target = {
    url: "",
    healthy: true,
    body: "All systems OK",
    contentType: "text/plain",
    headers: {},
    delayMs: 0,
    hits: 0,
    received: {},
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    target.hits++;
    target.received = req.headers;
    if (req.url === "/redirect") return res.writeHead(302, { location: "/" }).end();
    const answer = () =>
      target.healthy
        ? res.writeHead(200, { "content-type": target.contentType, ...target.headers }).end(target.body)
        : res.writeHead(503, { "content-type": "text/plain" }).end("down");
    if (target.delayMs > 0) setTimeout(answer, target.delayMs);
    else answer();
  });
  Object.assign(target, await listenOnLoopback(server));
  return target;
}

/** Polls `fn` until it returns a truthy value (or fails after `timeoutMs`, naming `what` it waited for). */
export async function eventually<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what?: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(what ? `timed out waiting for ${what}` : "condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}
