import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckerAgent } from "../../../server/agents/agent";
import {
  type GrpcHealthServer,
  startGrpcHealthServer,
  startUdpEcho,
  startWebSocketServer,
  type UdpEcho,
  type WebSocketTarget,
} from "../../support/protocol-servers";
import { startServer, type TestServer } from "../../support/server";
import { eventually } from "../../support/target";

describe("grpc, websocket and udp monitors at an agent location", () => {
  let s: TestServer;
  let agent: CheckerAgent;
  let grpc: GrpcHealthServer;
  let ws: WebSocketTarget;
  let udp: UdpEcho;

  beforeAll(async () => {
    s = await startServer({ checker: true, minIntervalSec: 1, leaseMs: 2_000, agentLiveMs: 3_000 });
    const key = (await s.app.store.keys.create("dev", "eu agent", undefined, "eu")).key;
    [grpc, ws, udp] = await Promise.all([
      startGrpcHealthServer({ "shop.Cart": "SERVING" }),
      startWebSocketServer(),
      startUdpEcho(),
    ]);
    agent = new CheckerAgent({
      server: s.url,
      key,
      location: "eu",
      allowPrivateTargets: true,
      concurrency: 4,
      maxBuffered: 100,
      waitMs: 500,
    });
    agent.start();
  });
  afterAll(async () => {
    await agent?.stop(1_000);
    await s?.close();
    await Promise.all([grpc?.close(), ws?.close(), udp?.close()]);
  });

  it("the agent checks each type and posts its heartbeats; a dry run at the location runs there", async () => {
    const bodies = [
      { type: "grpc", url: grpc.url, grpc_service: "shop.Cart", headers: { authorization: "Bearer agent-secret-1" } },
      {
        type: "websocket",
        url: `${ws.url}/echo`,
        body: "hi",
        assertions: [{ source: "text_body", comparison: "equals", target: "echo:hi" }],
      },
      {
        type: "udp",
        url: udp.url,
        body: "ping",
        assertions: [{ source: "text_body", comparison: "equals", target: "pong:ping" }],
      },
    ];
    for (const body of bodies) {
      const res = await s.call("POST", "/api/v1/monitors", {
        name: body.type,
        interval_sec: 2,
        timeout_sec: 1,
        locations: ["eu"],
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.data.id;
      const hb = await eventually(
        async () =>
          (
            (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[]
          )[0],
      );
      expect(hb, body.type).toMatchObject({ location: "eu", status: "up" });
      const dry = await s.call("POST", `/api/v1/monitors/${id}/test?location=eu`);
      expect(dry.body.data, body.type).toMatchObject({ status: "up" });
      expect(JSON.stringify([hb, dry.body])).not.toContain("agent-secret-1");
    }
    expect(grpc.metadata.some((m) => m.authorization === "Bearer agent-secret-1")).toBe(true);
  });
});
