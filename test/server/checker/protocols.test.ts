import { describe, expect, it } from "vitest";
import { closedUdpPort, startGrpcHealthServer, useProtocolTargets } from "../../support/protocol-servers";
import { eventually } from "../../support/target";
import { useServer, useStarted } from "../../support/use-server";

/** grpc, websocket and udp monitors against real local servers, through the dry run and the checker. */
describe("protocol monitors", () => {
  const s = useServer({ checker: true, minIntervalSec: 1 });
  const { grpc, ws, udp } = useProtocolTargets({
    "": "SERVING",
    "shop.Cart": "SERVING",
    "shop.Billing": "NOT_SERVING",
  });
  const grpcTls = useStarted("the TLS gRPC server", () => startGrpcHealthServer({ "": "SERVING" }, { tls: true }));
  const dryRun = async (body: Record<string, unknown>) => {
    const res = await s.call("POST", "/api/v1/monitors/test", { name: "p", interval_sec: 30, timeout_sec: 2, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  it("grpc: up while the health service answers SERVING, with the metadata sent", async () => {
    const up = await dryRun({
      type: "grpc",
      url: grpc.url,
      grpc_service: "shop.Cart",
      headers: { authorization: "Bearer s3cret" },
    });
    expect(up).toMatchObject({ status: "up", error: null });
    expect(grpc.metadata.at(-1)).toMatchObject({ authorization: "Bearer s3cret" });
    expect(await dryRun({ type: "grpc", url: grpc.url })).toMatchObject({ status: "up" });
  });

  it("grpc: down when the service is not serving or unknown, and when nothing listens", async () => {
    expect(await dryRun({ type: "grpc", url: grpc.url, grpc_service: "shop.Billing" })).toMatchObject({
      status: "down",
      error_class: "assertion",
      error: "health of service shop.Billing is NOT_SERVING, expected SERVING",
    });
    expect(await dryRun({ type: "grpc", url: grpc.url, grpc_service: "shop.Gone" })).toMatchObject({
      status: "down",
      error: expect.stringContaining("does not know service shop.Gone"),
    });
    const closed = await startGrpcHealthServer({ "": "SERVING" });
    await closed.close();
    expect(await dryRun({ type: "grpc", url: closed.url })).toMatchObject({
      status: "down",
      error_class: "connect",
      error: expect.stringContaining("UNAVAILABLE"),
    });
  });

  it("grpc: assertions judge the serving status and the response time", async () => {
    const res = await dryRun({
      type: "grpc",
      url: grpc.url,
      assertions: [
        { source: "text_body", comparison: "equals", target: "SERVING" },
        { source: "response_time", comparison: "less_than", target: "1" },
      ],
    });
    expect(res.assertions.map((a: { pass: boolean }) => a.pass)).toEqual([true, expect.any(Boolean)]);
    expect(res.status).toBe(res.assertions[1].pass ? "up" : "down");
  });

  it("grpcs: a self-signed certificate fails unless verify_tls is false", async () => {
    expect(await dryRun({ type: "grpc", url: grpcTls.url })).toMatchObject({ status: "down", error_class: "tls" });
    expect(await dryRun({ type: "grpc", url: grpcTls.url, verify_tls: false })).toMatchObject({ status: "up" });
  });

  it("websocket: judges the first message, sends the body, and sends the headers in the handshake", async () => {
    const greet = await dryRun({
      type: "websocket",
      url: `${ws.url}/greet`,
      headers: { "x-token": "s3cret" },
      assertions: [{ source: "json_body", property: "$.status", comparison: "equals", target: "ok" }],
    });
    expect(greet).toMatchObject({ status: "up", assertions: [{ pass: true, actual: "ok" }] });
    expect(ws.headers.at(-1)).toMatchObject({ "x-token": "s3cret" });
    const echo = await dryRun({
      type: "websocket",
      url: `${ws.url}/echo`,
      body: "ping",
      assertions: [{ source: "text_body", comparison: "equals", target: "echo:pong" }],
    });
    expect(echo).toMatchObject({
      status: "down",
      error_class: "assertion",
      assertions: [{ pass: false, actual: "echo:ping" }],
    });
  });

  it("websocket: down when no message arrives within the timeout, or the handshake is refused", async () => {
    expect(await dryRun({ type: "websocket", url: `${ws.url}/silent`, timeout_sec: 1 })).toMatchObject({
      status: "down",
      error_class: "timeout",
      error: "timed out after 1 s",
    });
    // The API server itself answers the handshake with a plain HTTP status.
    expect(await dryRun({ type: "websocket", url: `${s.url.replace(/^http/, "ws")}/api/v1/monitors` })).toMatchObject({
      status: "down",
      error: "handshake answered with status 401, not 101",
    });
  });

  it("udp: up on a reply that matches; down on no reply, a wrong reply, or an unreachable port", async () => {
    /** A dry run that sends "ping" and asserts on the reply's text. */
    const ping = (comparison: string, target: string) =>
      dryRun({ type: "udp", url: udp.url, body: "ping", assertions: [{ source: "text_body", comparison, target }] });
    expect(await ping("matches", "^pong:p.ng$")).toMatchObject({ status: "up" });
    expect(await ping("contains", "pang")).toMatchObject({ status: "down", error_class: "assertion" });
    expect(await dryRun({ type: "udp", url: udp.url, body: "quiet", timeout_sec: 1 })).toMatchObject({
      status: "down",
      error_class: "timeout",
    });
    expect(await dryRun({ type: "udp", url: `udp://127.0.0.1:${await closedUdpPort()}`, body: "ping" })).toMatchObject({
      status: "down",
      error_class: "connect",
      error: expect.stringContaining("ECONNREFUSED"),
    });
  });

  it("the checker runs each type and records its heartbeats", async () => {
    const create = async (body: Record<string, unknown>) =>
      (await s.call("POST", "/api/v1/monitors", { name: "p", interval_sec: 2, timeout_sec: 1, ...body })).body.data;
    const ids = [
      (await create({ type: "grpc", url: grpc.url, grpc_service: "shop.Cart" })).id,
      (await create({ type: "websocket", url: `${ws.url}/greet` })).id,
      (await create({ type: "udp", url: udp.url, body: "ping" })).id,
    ];
    await eventually(async () => {
      for (const id of ids) if ((await s.call("GET", `/api/v1/monitors/${id}`)).body.data.health !== "up") return false;
      return true;
    });
    grpc.health.setStatus("shop.Cart", "NOT_SERVING");
    await eventually(async () => (await s.call("GET", `/api/v1/monitors/${ids[0]}`)).body.data.health === "down");
    for (const id of ids) await s.call("DELETE", `/api/v1/monitors/${id}`);
  });

  it("rejects bad fields of each type with the field and the rule named", async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await s.call("POST", "/api/v1/monitors", { name: "bad", interval_sec: 30, ...body });
      expect(res.status).toBe(422);
      return res.body.error.details;
    };
    expect(await bad({ type: "grpc", url: "grpc://h.example.com" })).toEqual([
      { field: "url", message: "must name a port: grpc://host:port (plaintext) or grpcs://host:port (TLS)" },
    ]);
    expect(await bad({ type: "websocket", url: "https://h.example.com" })).toEqual([
      { field: "url", message: "must be ws:// or wss:// for websocket monitors" },
    ]);
    expect(await bad({ type: "udp", url: "udp://h.example.com:53" })).toEqual([
      { field: "body", message: "is required for udp monitors (the datagram sent)" },
    ]);
    expect(await bad({ type: "http", url: "https://h.example.com", grpc_service: "x" })).toEqual([
      { field: "grpc_service", message: "is only allowed for grpc monitors, not http" },
    ]);
    expect(
      await bad({
        type: "grpc",
        url: "grpc://h.example.com:1",
        assertions: [{ source: "status_code", comparison: "equals", target: "200" }],
      }),
    ).toEqual([
      { field: "assertions[0].source", message: "must be one of text_body, response_time for grpc monitors" },
    ]);
  });
});
