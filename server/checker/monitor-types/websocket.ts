import { connect as netConnect, isIP, Socket } from "node:net";
import { connect as tlsConnect, type ConnectionOptions } from "node:tls";
import WebSocket from "ws";
import { assertTargetAllowed, refusal, safeLookup, TargetRefusedError } from "../../outbound";
import type { CheckedMonitor } from "../monitor-fields";
import { guarded, type ProbeContext, type ProbeResult } from "../probe";
import { judgeReply, timedOut } from "../protocols/reply";
import type { MonitorType } from "./monitor-type";

/** The most of the first message read, as for HTTP bodies' assertions. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Opens the WebSocket (with the monitor's headers in the handshake), sends `body` when there is
 * one, and judges the first message received; all within the timeout.
 */
export function probeWebSocket(monitor: CheckedMonitor, ctx: ProbeContext): Promise<ProbeResult> {
  return guarded(monitor.timeout_sec, async (started) => {
    const url = new URL(monitor.url ?? "");
    assertTargetAllowed(url, ctx.allowPrivate);
    let connectMs: number | null = null;
    const message = await new Promise<string>((resolve, reject) => {
      const socket = new WebSocket(url, {
        headers: monitor.headers,
        handshakeTimeout: monitor.timeout_sec * 1000,
        maxPayload: MAX_MESSAGE_BYTES,
        followRedirects: monitor.follow_redirects,
        rejectUnauthorized: monitor.verify_tls,
        lookup: safeLookup(ctx.allowPrivate, ctx.resolve) as never,
        createConnection: guardedConnection(ctx.allowPrivate) as never,
      });
      const timer = setTimeout(() => done(timedOut(monitor.timeout_sec)), monitor.timeout_sec * 1000);
      const done = (err: Error | null, text?: string) => {
        clearTimeout(timer);
        socket.removeAllListeners();
        socket.on("error", () => undefined);
        socket.terminate();
        if (err) reject(err);
        else resolve(text ?? "");
      };
      socket.once("open", () => {
        connectMs = Math.round(performance.now() - started);
        if (monitor.body !== null) socket.send(monitor.body);
      });
      socket.once("message", (data: WebSocket.RawData) =>
        done(null, Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8")),
      );
      socket.once("unexpected-response", (_req, res) =>
        done(
          Object.assign(new Error(`handshake answered with status ${res.statusCode}, not 101`), {
            code: "WS_HANDSHAKE",
          }),
        ),
      );
      // 1006: the connection dropped without a close frame (a network failure); any other code is the server's answer.
      socket.once("close", (code) =>
        done(
          Object.assign(new Error(`closed (${code}) before a message arrived`), {
            code: code === 1006 ? "ECONNRESET" : "WS_CLOSED",
          }),
        ),
      );
      socket.once("error", (err) => done(err));
    });
    return judgeReply(ctx, monitor, started, message, undefined, { connect_ms: connectMs });
  });
}

/**
 * Connections of the handshake and of each redirect hop: names go through `safeLookup` (the
 * `lookup` option), IP literals, which are never looked up, are checked here before dialling.
 */
function guardedConnection(allowPrivate: boolean) {
  return (options: ConnectionOptions & { protocol?: string; host?: string }) => {
    const host = (options.host ?? "").replace(/^\[|\]$/g, "");
    const why = isIP(host) ? refusal(host, allowPrivate) : undefined;
    if (why) {
      const socket = new Socket();
      process.nextTick(() =>
        socket.destroy(new TargetRefusedError(`connection refused by the outbound policy: ${why}`)),
      );
      return socket;
    }
    return options.protocol === "wss:" || options.protocol === "https:"
      ? tlsConnect(options)
      : netConnect(options as never);
  };
}

/** WebSocket monitors: up when the first message arrives within the timeout and the assertions pass. */
export const websocketType: MonitorType = {
  name: "websocket",
  probes: true,
  check: (monitor, ctx) => probeWebSocket(monitor, ctx.probe),
};
