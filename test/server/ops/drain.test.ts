import { once } from "node:events";
import { connect } from "node:net";
import { Writable } from "node:stream";
import { Agent, request } from "undici";
import { describe, expect, it, onTestFinished } from "vitest";
import { startReceiver } from "../../support/receiver";
import { closeOnSignals } from "../../../server/ops/shutdown";
import { startServer, webhookChannel } from "../../support/server";
import { eventually, startTarget } from "../../support/target";

describe("closing the server", () => {
  it("gives a notification waiting to retry its last attempt now, instead of waiting or dropping it", async () => {
    const target = await startTarget();
    target.healthy = false;
    const failing = await startReceiver(500);
    const s = await startServer({ checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [60_000, 60_000] });
    try {
      const channel = await webhookChannel(s, "hook", { url: `${failing.url}/hook` });
      await s.call("POST", "/api/v1/monitors", {
        name: "Site",
        type: "http",
        url: target.url,
        interval_sec: 2,
        timeout_sec: 1,
        channel_ids: [channel.id],
      });
      await eventually(async () => failing.received.length >= 1);
      // The failed attempt recorded, the retry waiting (the receiver's answer alone came before that).
      await eventually(async () => {
        const deliveries = (await s.call("GET", `/api/v1/channels/${channel.id}/deliveries`)).body.data as
          { status: string; attempts: number }[] | undefined;
        return deliveries?.some((d) => d.status === "pending" && d.attempts === 1);
      });
      const started = Date.now();
      await s.close();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(failing.received).toHaveLength(2);
      const failed = await s.app.metrics.notificationsFailed.get();
      expect(failed.values).toEqual([{ labels: { channel_type: "webhook" }, value: 1 }]);
    } finally {
      await failing.close();
      await target.close();
    }
  });

  it("answers the requests in flight with Connection: close, so a kept-alive agent does not hold the close for the keep-alive timeout", async () => {
    // The server keeps an idle connection 72 s by default; an agent almost always has a lease
    // request waiting on its kept-alive connection when the server is told to stop.
    const s = await startServer({ keepAliveTimeoutMs: 72_000 });
    const key = (await s.app.store.keys.create("dev", "agent", undefined, "edge")).key;
    const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
    try {
      const lease = (waitMs: number) =>
        request(`${s.url}/api/v1/agent/leases`, {
          method: "POST",
          dispatcher,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ agent_id: "edge-1", max: 1, wait_ms: waitMs }),
        });
      // A first call opens the kept-alive connection; the second waits on it when the close begins.
      await (await lease(0)).body.text();
      let seen = 0;
      s.app.server.on("request", () => seen++);
      const waiting = lease(1_000);
      await eventually(async () => seen === 1, 5_000);
      const started = Date.now();
      const closed = s.close();
      const answer = await waiting;
      expect(answer.statusCode).toBe(200);
      expect(answer.headers.connection).toBe("close");
      await answer.body.text();
      await closed;
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await dispatcher.close();
    }
  });

  it("says what it still waited for when a signal's close outlasts the shutdown timeout, and exits 1", async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const s = await startServer({ logger: { level: "info", stream } });
    const codes: number[] = [];
    const unsubscribe = closeOnSignals(s.app, 100, (code) => codes.push(code));
    onTestFinished(unsubscribe);
    // A client that sent half a request body and stalls: the close waits for that request.
    const { port } = new URL(s.url);
    const stalled = connect(Number(port), "127.0.0.1");
    await once(stalled, "connect");
    stalled.write(
      `POST /api/v1/channels HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
    );
    await new Promise((r) => setTimeout(r, 200));
    process.emit("SIGTERM");
    await eventually(async () => codes.length > 0, 5_000);
    expect(codes).toEqual([1]);
    const timedOut = lines
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === "shutdown timed out: exiting with work still in flight");
    expect(timedOut?.waiting).toEqual({ connections: 1, checks: 0, deliveries: 0 });
    stalled.destroy();
    await eventually(async () => codes.length === 2, 5_000);
    expect(codes).toEqual([1, 0]);
  });

  it("closes a kept-alive connection whose answer skipped the hooks (a malformed URL) once it is idle, not after the keep-alive timeout", async () => {
    const s = await startServer({ keepAliveTimeoutMs: 72_000 });
    const socket = connect(Number(new URL(s.url).port), "127.0.0.1");
    await once(socket, "connect");
    let answer = "";
    socket.on("data", (d) => (answer += d));
    const ended = once(socket, "close");
    // Half a request when the close begins: the connection is busy, so the close does not reap it.
    socket.write("GET /api/v1/monitors/%zz HTTP/1.1\r\nHost: x\r\n");
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const closed = s.close();
    await new Promise((r) => setTimeout(r, 100));
    socket.write("\r\n");
    await ended;
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
