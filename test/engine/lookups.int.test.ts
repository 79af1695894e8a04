import { describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";

describe("lookups through the real engine", () => {
  let channelId: string;
  const s = useServer();
  const { stack } = useStack({
    program: "test/engine/programs/lookups",
    server: s,
    config: async () => {
      // Made outside the program, as another team (or a person in the web UI) would.
      const made = await s.call("POST", "/api/v1/channels", {
        name: "ops-webhook",
        type: "webhook",
        config: { url: "https://hooks.example.com/ops" },
      });
      channelId = made.body.data.id;
      expect(
        (
          await s.call("POST", "/api/v1/status-pages", {
            slug: "public-status",
            title: "Public status",
            monitor_ids: [],
          })
        ).status,
      ).toBe(201);
      return { channelName: { value: "ops-webhook" }, statusSlug: { value: "public-status" } };
    },
  });

  it("attaches a channel made outside the program, found by name, and a second preview is clean", async () => {
    const up = await stack.up();
    expect(up.outputs.channelId?.value).toBe(channelId);
    expect(up.outputs.channelType?.value).toBe("webhook");
    expect(up.outputs.statusPageTitle?.value).toBe("Public status");
    expect(up.outputs.foundMonitorName?.value).toBe("api");
    const monitor = (await s.call("GET", `/api/v1/monitors/${up.outputs.monitorId?.value}`)).body.data;
    expect(monitor.channel_ids).toEqual([channelId]);
    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ same: 3 });
  });

  it("fails the preview when the name matches two channels, saying how many matched", async () => {
    const twin = await s.call("POST", "/api/v1/channels", {
      name: "ops-webhook",
      type: "email",
      config: { address: "ops@example.com" },
    });
    expect(twin.status).toBe(201);
    const failed = await stack.preview().then(
      () => "no error",
      (err: Error) => err.message,
    );
    expect(failed).toContain(`getChannel({ name: "ops-webhook" }) failed: name "ops-webhook" matches 2 channels`);
    expect(failed).toContain(channelId);
    expect(failed).toContain(twin.body.data.id);
    // The stack's objects are untouched by the failed preview.
    expect((await s.call("GET", "/api/v1/monitors")).body.data).toHaveLength(1);
  });
});
