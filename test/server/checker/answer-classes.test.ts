import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Server as GrpcServer, ServerCredentials } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RdapTarget, startRdapServer } from "../../support/network-servers";
import { startServer, type TestServer } from "../../support/server";

/**
 * `retry.trigger: "network"` retries network failures only: whatever the target answered (an
 * HTTP status to a WebSocket handshake, a gRPC status, an RDAP 404, a bootstrap file without the
 * TLD) is a verdict, classed as such, not retried, and not alerted as `connect:`.
 */
describe("answers of the target are not network failures", () => {
  let s: TestServer;
  let site: Server;
  let wsBase: string;
  let grpc: GrpcServer;
  let grpcUrl: string;
  let rdap: RdapTarget;
  beforeAll(async () => {
    rdap = await startRdapServer({ "shop.example": 200 });
    s = await startServer({ minIntervalSec: 1, rdapBootstrapUrl: rdap.bootstrapUrl });
    // Answers a WebSocket handshake with a plain HTTP status: `/ok` 200, anything else 404.
    site = createServer((req, res) =>
      res.writeHead(req.url === "/ok" ? 200 : 404, { "content-type": "text/plain" }).end("no websocket here"),
    );
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    wsBase = `ws://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // A gRPC server without the health service: every health check is UNIMPLEMENTED.
    grpc = new GrpcServer();
    const port = await new Promise<number>((resolve, reject) =>
      grpc.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    grpcUrl = `grpc://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await s?.close();
    grpc?.forceShutdown();
    await Promise.all([rdap?.close(), new Promise((resolve) => site?.close(resolve))]);
  });

  const retry = { strategy: "fixed", delay: 50, retries: 2, trigger: "network" };
  const dryRun = async (body: Record<string, unknown>) => {
    const res = await s.call("POST", "/api/v1/monitors/test", {
      name: "answered",
      interval_sec: 30,
      timeout_sec: 2,
      retry,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { status: string; error: string; error_class: string; attempts?: unknown[] };
  };

  it.each([
    [
      "a WebSocket handshake answered 200",
      "http",
      { type: "websocket", url: "WS/ok" },
      /handshake answered with status 200, not 101/,
    ],
    [
      "a WebSocket handshake answered 404",
      "http",
      { type: "websocket", url: "WS/nope" },
      /handshake answered with status 404, not 101/,
    ],
    [
      "gRPC UNIMPLEMENTED",
      "http",
      { type: "grpc", url: "GRPC" },
      /does not implement grpc\.health\.v1 \(UNIMPLEMENTED\)/,
    ],
    ["RDAP 404", "http", { type: "domain", url: "domain://nobody.example" }, /not registered \(RDAP answered 404\)/],
    [
      "no RDAP service for the TLD",
      "assertion",
      { type: "domain", url: "domain://shop.invalid" },
      /^no RDAP service for \.invalid in the bootstrap file$/,
    ],
  ] as const)("%s is classed %s and not retried", async (_what, errorClass, monitor, error) => {
    const url = monitor.url.replace("WS", wsBase).replace("GRPC", grpcUrl);
    const out = await dryRun({ ...monitor, url });
    expect(out, JSON.stringify(out)).toMatchObject({ status: "down", error_class: errorClass });
    expect(out.error).toMatch(error);
    expect(out.attempts ?? []).toHaveLength(0);
  });

  it("a refused connection is still a network failure, retried", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const out = await dryRun({ type: "websocket", url: `ws://127.0.0.1:${port}/` });
    expect(out).toMatchObject({ status: "down", error_class: "connect" });
    expect(out.attempts).toHaveLength(3);
  });
});
