import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgentLocation } from "../../support/agent-location";
import { useProtocolTargets } from "../../support/protocol-servers";
import type { TestServer } from "../../support/server";
import { eventually } from "../../support/target";

describe("grpc, websocket and udp monitors at an agent location", () => {
  let s: TestServer;
  let close: () => Promise<void>;
  const { grpc, ws, udp } = useProtocolTargets({ "shop.Cart": "SERVING" });

  beforeAll(async () => {
    ({ s, close } = await startAgentLocation());
  });
  afterAll(async () => {
    await close?.();
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
        interval_sec: 5,
        // A second was too little for a grpc call beside other suites: the timeout is not what is judged.
        timeout_sec: 4,
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
