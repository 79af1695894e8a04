import { describe, expect, it } from "vitest";
import { checkedUp, refusedPreview, expectSecretNowhere, useServer, useStack } from "../support/engine-suite";
import { useProtocolTargets } from "../support/protocol-servers";
import { driftFields, expectTestPasses } from "./cli";

const TOKEN = "tok-7f3a9c1e55";

/** Runs the provider's CLI (`drift --json`, `test`) as a user's pipeline would: a separate process. */
describe("grpc, websocket and udp monitors deployed by the engine", () => {
  let ids: Record<"grpc" | "websocket" | "udp", string>;
  const output: string[] = [];
  const onOutput = (line: string) => output.push(line);

  const s = useServer({ checker: true, minIntervalSec: 1 });
  const { grpc, ws, udp } = useProtocolTargets({ "shop.Cart": "SERVING", "shop.Billing": "SERVING" });
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/protocols",
    server: s,
    config: () => ({
      grpcUrl: { value: grpc.url },
      wsUrl: { value: ws.url },
      udpUrl: { value: udp.url },
      token: { value: TOKEN, secret: true },
    }),
  });

  it("a grpc URL without a port fails the preview, naming the field and the rule", async () => {
    expect(await refusedPreview(stack, s, { noPort: { value: "true" } }, { onOutput })).toMatch(
      /url: must name a port: grpc:\/\/host:port \(plaintext\) or grpcs:\/\/host:port \(TLS\)/,
    );
  }, 300_000);

  it("deploys one of each; each is checked up; a second preview is clean; `pulumi-uptime test` passes each", async () => {
    const up = await stack.up({ onOutput });
    // The stack, the provider and the three monitors.
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    ids = up.outputs.ids?.value;
    const live = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
    expect(await live(ids.grpc)).toMatchObject({
      type: "grpc",
      grpc_service: "shop.Cart",
      headers: { authorization: s.shownHeader(ids.grpc, "authorization", `Bearer ${TOKEN}`) },
    });
    expect(await live(ids.udp)).toMatchObject({ type: "udp", body: "ping", grpc_service: null });
    await checkedUp(s, Object.values(ids));
    expect(grpc.metadata.some((m) => m.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(ws.headers.some((h) => h["x-token"] === TOKEN)).toBe(true);

    expect((await stack.preview({ onOutput })).changeSummary).toEqual({ same: 5 });

    await expectTestPasses(engine, program.workDir, ["cart-grpc", "feed-ws", "echo-udp"], output);
  }, 400_000);

  it("drift in each is caught by name and field, and refresh + up restore them", async () => {
    await s.call("PATCH", `/api/v1/monitors/${ids.grpc}`, { grpc_service: "shop.Billing" });
    await s.call("PATCH", `/api/v1/monitors/${ids.websocket}`, { body: "drifted-body-9" });
    await s.call("PATCH", `/api/v1/monitors/${ids.udp}`, {
      assertions: [{ source: "text_body", comparison: "contains", target: "pong" }],
    });
    const { fields, stdout } = await driftFields(engine, program.workDir);
    expect(fields).toEqual({
      "cart-grpc": ["grpcService"],
      "feed-ws": ["(secret fields)"],
      "echo-udp": ["assertions"],
    });
    // The secret body drifted: the report says secret fields changed, never the value.
    expect(stdout).not.toContain("drifted-body-9");

    await stack.refresh({ onOutput });
    await stack.up({ onOutput });
    expect((await stack.preview({ onOutput })).changeSummary).toEqual({ same: 5 });
    expect((await s.call("GET", `/api/v1/monitors/${ids.grpc}`)).body.data.grpc_service).toBe("shop.Cart");
  }, 400_000);

  it("the token shows in no output and no state file", () => {
    expectSecretNowhere(engine, output, TOKEN, "grpcService");
  });
});
