import type { Socket } from "node:net";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { ServerOptions } from "../config";

/**
 * Timeouts and keep-alive limits of the HTTP server, so slow or stuck clients cannot hold
 * connections: headers must arrive within `headersTimeoutMs`, the whole request (a body shorter
 * than its `Content-Length` included) within `requestTimeoutMs` (then 408 and the socket closes),
 * an idle socket is closed after `idleTimeoutMs`, a kept-alive one after `keepAliveTimeoutMs` or
 * `maxRequestsPerSocket` requests. Node checks the first two every second, not every 30 s.
 */
export function serverTimeouts(settings: ServerOptions): Partial<FastifyServerOptions> {
  return {
    connectionTimeout: settings.idleTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    maxRequestsPerSocket: settings.maxRequestsPerSocket,
    http: {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      connectionsCheckingInterval: 1_000,
    },
  } as Partial<FastifyServerOptions>;
}

/**
 * Caps open connections: `maxConnections` in all, `maxConnectionsPerAddress` per client address
 * (0: no per-address cap). A connection over a cap is closed at once, before any byte is read, so
 * one address opening thousands of slow sockets cannot starve everyone else.
 */
export function registerConnectionLimits(app: FastifyInstance, settings: ServerOptions): void {
  const { maxConnections, maxConnectionsPerAddress: perAddress } = settings;
  app.server.maxConnections = maxConnections;
  if (perAddress === 0) return;
  const open = new Map<string, number>();
  app.server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * While the server drains (`app.draining`: a signal, or `app.close()`), every answer carries
 * `Connection: close`, so its socket closes once the answer is out, and the client knows to
 * reconnect. Node's `server.close()` reaps only the connections idle at that moment: a kept-alive
 * connection whose request was in flight (an agent's waiting lease request, nearly always) would
 * otherwise hold the close for the whole keep-alive timeout (72 s), past the shutdown timeout.
 * Answers that skip the hooks (Fastify's own errors for a malformed URL) or that were under way
 * before the drain began are covered too: until the server has closed, connections gone idle are
 * closed every 200 ms.
 */
export function closeConnectionsWhenDraining(app: FastifyInstance): void {
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (app.draining) reply.header("connection", "close");
    done(null, payload);
  });
  app.addHook("preClose", (done) => {
    const reaper = setInterval(() => app.server.closeIdleConnections(), 200);
    reaper.unref();
    app.server.once("close", () => clearInterval(reaper));
    done();
  });
}
