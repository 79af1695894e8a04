/**
 * An escalation step names its channels by their Outputs: the program's values reach the
 * provider resolved (Pulumi's runtime under mocks), and a preview judges them while they are
 * not known yet (the provider's runtime).
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { UNKNOWN } from "../../provider/kinds/values";
import * as runtime from "../../provider/runtime";
import { Channel, Monitor, type MonitorArgs } from "../../provider/index";
import { monitorInputs } from "../support/provider-inputs";

type Props = Record<string, unknown>;

describe("escalation steps with channel ids as Outputs", () => {
  const registered = new Map<string, Props>();
  beforeAll(() => {
    pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.set(args.name, args.inputs as Props);
          return { id: `${args.name}-id`, state: args.inputs };
        },
        call: (args) => args.inputs,
      },
      "project",
      "stack",
      false,
    );
  });

  it("take a list of Outputs in `channels`, and an Output for `after`", () => {
    expectTypeOf<[{ after: number; channels: pulumi.Output<string>[] }]>().toExtend<MonitorArgs["escalation"]>();
    expectTypeOf<[{ after: pulumi.Output<number>; channels: pulumi.Output<string[]> }]>().toExtend<
      MonitorArgs["escalation"]
    >();
    expectTypeOf<pulumi.Output<{ after: number; channels: string[] }[]>>().toExtend<MonitorArgs["escalation"]>();
    expectTypeOf<[{ after: string; channels: string[] }]>().not.toExtend<MonitorArgs["escalation"]>();
  });

  it("reach the provider as the channels' ids", async () => {
    const pager = new Channel("pager", {
      type: "pagerduty",
      config: { routingKey: "R0uting0Key0000000000000000000a1" },
    });
    const chat = new Channel("chat", {
      type: "discord",
      config: { webhookUrl: "https://discord.com/api/webhooks/1/t" },
    });
    const monitor = new Monitor("api", {
      type: "http",
      url: "https://example.com",
      intervalSec: 60,
      escalation: [
        { after: 300, channels: [pager.id] },
        { after: pulumi.output(900), channels: pulumi.all([pager.id, chat.id]) },
      ],
    });
    await new Promise<void>((resolve) => monitor.id.apply(() => resolve()));
    expect(registered.get("api")?.escalation).toEqual([
      { after: 300, channels: ["pager-id"] },
      { after: 900, channels: ["pager-id", "chat-id"] },
    ]);
  });

  it("are judged at preview while a channel id is not known yet, and only on what is known", async () => {
    const monitor = monitorInputs({ baseUrl: "http://127.0.0.1:9", apiKey: "uk_x" });
    const check = (escalation: unknown) => runtime.check("Monitor", {}, { ...monitor, escalation });
    expect((await check([{ after: 300, channels: [UNKNOWN] }])).failures ?? []).toEqual([]);
    expect(
      (
        await check([
          { after: 300, channels: [UNKNOWN, "chn_b"] },
          { after: UNKNOWN, channels: [UNKNOWN] },
        ])
      ).failures ?? [],
    ).toEqual([]);
    expect((await check([{ after: -1, channels: [UNKNOWN, ""] }])).failures?.map((f) => f.property)).toEqual([
      "escalation[0].after",
      "escalation[0].channels[1]",
    ]);
  });
});
