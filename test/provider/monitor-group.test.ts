import { describe, expect, it } from "vitest";
import { type Input, output } from "@pulumi/pulumi";
import { withGroupSettings } from "../../provider/index";
import { groupChildren } from "../../provider/resources/monitor-group";

const valueOf = <T>(v: Input<T> | undefined): Promise<T> =>
  new Promise((resolve) => output(v as Input<T>).apply((x) => resolve(x as T)));

describe("a group's settings on its monitors", () => {
  const group = { intervalSec: 60, confirmations: 2, locations: ["eu"], channelIds: ["chn_a"], tags: ["shop"] };

  it("fill in what a monitor leaves out", () => {
    expect(withGroupSettings(group, { type: "http", url: "https://a.example.com" })).toEqual({
      type: "http",
      url: "https://a.example.com",
      ...group,
    });
  });

  it("give way to a monitor's own values, its tags added to the group's", () => {
    const own = {
      type: "http" as const,
      url: "https://b.example.com",
      intervalSec: 300,
      confirmations: 1,
      channelIds: [],
      tags: ["back-office", "shop"],
    };
    expect(withGroupSettings(group, own)).toMatchObject({
      intervalSec: 300,
      confirmations: 1,
      channelIds: [],
      locations: ["eu"],
      tags: ["shop", "back-office"],
    });
  });

  it("merge tags given as Outputs", async () => {
    const merged = withGroupSettings(
      { ...group, tags: output(["shop", "eu"]) },
      { type: "http", url: "https://c.example.com", tags: ["eu", "api"] },
    );
    expect(await valueOf(merged.tags)).toEqual(["shop", "eu", "api"]);
  });

  it("require an interval from the group or the monitor, naming it", () => {
    expect(() => withGroupSettings({}, { type: "http", url: "https://d.example.com" })).toThrow(
      "intervalSec: is required, on the group or on each of its monitors",
    );
  });
});

describe("a group's monitor ids", () => {
  it("come as a list in key order and as a map by key", async () => {
    const parent = {} as Parameters<typeof groupChildren>[0];
    const made = groupChildren(
      parent,
      "shop",
      {
        intervalSec: 60,
        monitors: {
          web: { type: "http", url: "https://a.example.com" },
          api: { type: "http", url: "https://b.example.com" },
        },
      },
      {
        monitor: (name: string) => ({ id: output(`mon_${name}`) }),
        window: () => undefined,
      },
    );
    expect(await valueOf(made.monitorIds)).toEqual(["mon_shop-web", "mon_shop-api"]);
    expect(await valueOf(made.monitorIdsByName)).toEqual({ web: "mon_shop-web", api: "mon_shop-api" });
  });
});
