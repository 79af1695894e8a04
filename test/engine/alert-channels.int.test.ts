import { expectNotInState } from "./native";
import { describe, expect, it } from "vitest";
import { startVendorReceiver } from "../../server/testing";
import { useServer, useStack, useTarget } from "../support/engine-suite";

const SECRETS = {
  routingKey: "EngineRoutingKey0000000000000a1b",
  opsgenieKey: "engine-opsgenie-key-0c0ffee",
  botToken: "987654321:engine-telegram-bot-token-abcdefghij",
};

describe("vendor channels through the real engine", () => {
  const s = useServer();
  const v = useTarget(() => startVendorReceiver());
  const { stack, engine } = useStack({
    program: "test/engine/programs/alert-channels",
    server: s,
    config: () => ({
      vendorUrl: { value: v.url },
      routingKey: { value: SECRETS.routingKey, secret: true },
      opsgenieKey: { value: SECRETS.opsgenieKey, secret: true },
      botToken: { value: SECRETS.botToken, secret: true },
      teamsUrl: { value: v.teamsUrl, secret: true },
      discordUrl: { value: v.discordUrl, secret: true },
    }),
  });

  it("creates one channel of each vendor type, previews clean, keeps no plaintext secret in state, and destroys", async () => {
    const up = await stack.up({ onOutput: (l) => process.stdout.write(l) });
    expect(up.summary.resourceChanges).toMatchObject({ create: 8 });
    const monitor = (await s.call("GET", `/api/v1/monitors/${up.outputs.monitorId?.value}`)).body.data;
    const genieId = (up.outputs.channelIds?.value as string[])[1];
    expect(monitor).toMatchObject({ remind_every_sec: 600, escalation: [{ after: 900, channels: [genieId] }] });
    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ same: 8 });
    // The state files as the backend keeps them (an export through the Automation API decrypts).
    expectNotInState(engine, String(up.outputs.monitorId?.value), [
      ...Object.values(SECRETS),
      "TEAMS-SIG-SECRET",
      "DISCORD-TOKEN-SECRET",
    ]);
    const destroyed = await stack.destroy();
    expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 8 });
    expect((await s.call("GET", "/api/v1/channels")).body.data).toEqual([]);
  });
});
