import { createServer, type IncomingMessage, request as httpRequest, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import type { ProbeContext } from "../probe";
import { allowedAddress } from "../protocols/reply";
import { assertNotOwnPort } from "./own-ports";

/**
 * The only way out of a browser check's sandbox: an HTTP proxy (CONNECT for https and wss, plain
 * requests for http) listening on a Unix socket that the sandbox sees. Each destination is
 * resolved here and its address checked against the outbound policy of the place that runs the
 * check, so a script cannot reach a private address that policy refuses, by name or by literal,
 * nor the uptime server's own API (own-ports.ts).
 */
export class PolicyProxy {
  /** Destinations refused, with the reason, in order (at most 20 kept). */
  readonly refused: string[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly ctx: ProbeContext) {
    this.server = createServer((req, res) => void this.forward(req, res));
    this.server.on(
      "connect",
      (req: IncomingMessage, client: Socket, head: Buffer) => void this.tunnel(req, client, head),
    );
    this.server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
  }

  /** Listens on the Unix socket `path`. */
  listen(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(path, () => resolve());
    });
  }

  /** Stops listening and drops every open connection. */
  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async check(host: string, port: number): Promise<{ address: string } | undefined> {
    try {
      const allowed = await allowedAddress(host, this.ctx);
      assertNotOwnPort(allowed.address, port, this.ctx);
      return allowed;
    } catch (err) {
      // Names that do not resolve are the page's problem; only the policy's refusals are evidence.
      const entry = `${host}: ${(err as Error).message}`;
      if (
        (err as { code?: string }).code === "target_refused" &&
        this.refused.length < 20 &&
        !this.refused.includes(entry)
      )
        this.refused.push(entry);
      return undefined;
    }
  }

  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on("error", () => client.destroy());
    const target = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? "");
    const allowed = target ? await this.check(target[1] as string, Number(target[2])) : undefined;
    if (!target || !allowed) {
      client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    const upstream = connect(Number(target[2]), allowed.address, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    this.sockets.add(upstream);
    upstream.on("close", () => this.sockets.delete(upstream));
    upstream.on("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n"));
  }

  private async forward(req: IncomingMessage, res: import("node:http").ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const allowed = url.protocol === "http:" ? await this.check(url.hostname, Number(url.port || 80)) : undefined;
    if (!allowed) {
      // No response at all: the page's navigation fails rather than showing a proxy's page.
      res.destroy();
      return;
    }
    const upstream = httpRequest(
      {
        host: allowed.address,
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: { ...req.headers, host: url.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  }
}
