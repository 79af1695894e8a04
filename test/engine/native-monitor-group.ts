import { describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import type { NativeSdks } from "./native";

/** The same MonitorGroup program, in the language of `program`, through the plugin. */
export function describeNativeGroup(label: string, program: string, options: NativeSdks = {}): void {
  describe(label, () => {
    let channelId: string;
    const s = useServer();
    const { stack } = useStack({
      program,
      native: options,
      server: s,
      config: async () => {
        channelId = (
          await s.call("POST", "/api/v1/channels", {
            name: "ops-webhook",
            type: "webhook",
            config: { url: "https://hooks.example.com/ops" },
          })
        ).body.data.id;
        return {
          intervalSec: { value: "60" },
          webUrl: { value: "https://web.example.com" },
          apiUrl: { value: "https://api.example.com/health" },
          adminUrl: { value: "https://admin.example.com" },
          channelName: { value: "ops-webhook" },
        };
      },
    });
    const monitor = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
    /** The group's monitors by name (a YAML map reaches the plugin with its keys sorted). */
    const byName = async (ids: string[]) =>
      Object.fromEntries((await Promise.all(ids.map(monitor))).map((m) => [m.name, m]));

    it("creates the group's monitors with its settings and the looked-up channel; a second preview is clean", async () => {
      const up = await stack.up();
      const ids = up.outputs.monitorIds?.value as string[];
      expect(ids).toHaveLength(3);
      const { "shop-web": web, "shop-api": api, "shop-admin": admin } = await byName(ids);
      expect(web).toMatchObject({
        name: "shop-web",
        interval_sec: 60,
        confirmations: 2,
        tags: ["shop"],
        channel_ids: [channelId],
      });
      expect(api).toMatchObject({
        name: "shop-api",
        interval_sec: 60,
        confirmations: 2,
        tags: ["shop"],
        channel_ids: [channelId],
      });
      expect(admin).toMatchObject({ name: "shop-admin", interval_sec: 300, tags: ["back-office", "shop"] });
      const windowId = (up.outputs.windowIds?.value as string[])[0];
      const window = (await s.call("GET", `/api/v1/maintenance-windows/${windowId}`)).body.data;
      expect([...window.monitor_ids].sort()).toEqual([...ids].sort());
      expect((await stack.preview()).changeSummary).toEqual({ same: 6 });
    });

    it("changing the group's interval updates its monitors in one up; the monitor with its own keeps it", async () => {
      await stack.setConfig("intervalSec", { value: "120" });
      const up = await stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ update: 2 });
      const ids = up.outputs.monitorIds?.value as string[];
      const { "shop-web": web, "shop-api": api, "shop-admin": admin } = await byName(ids);
      expect([web.interval_sec, api.interval_sec, admin.interval_sec]).toEqual([120, 120, 300]);
      expect((await stack.preview()).changeSummary).toEqual({ same: 6 });
    });
  });
}
