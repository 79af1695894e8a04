import type { UpResult } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import { driftCommand } from "./cli";

describe("drift detection on examples/full-stack", () => {
  let ids: { monitors: Record<string, string>; channels: Record<string, string>; page: string };
  let resources: number;
  const s = useServer();
  const { stack, engine, program } = useStack({
    program: "examples/full-stack",
    server: s,
    config: () => ({
      siteUrl: { value: "https://www.example.com" },
      webhookUrl: { value: `${s.url}/hooks/token`, secret: true },
      webhookSecret: { value: "0123456789abcdef0123", secret: true },
      slackWebhookUrl: { value: "https://hooks.slack.com/services/T0/B0/X", secret: true },
      statusSlug: { value: "drift-suite" },
    }),
  });

  beforeAll(async () => {
    const up = await stack.up();
    resources = up.summary.resourceChanges?.create ?? 0;
    await refreshIds(up);
  });

  /** The objects' ids, from the outputs `up` returned (a `stack.outputs()` would be two more CLI runs) and the server. */
  async function refreshIds(up: UpResult) {
    const out = up.outputs;
    const pages = (await s.call("GET", "/api/v1/status-pages")).body.data;
    ids = { monitors: out.monitorIds?.value, channels: out.channelIds?.value, page: pages[0].id };
  }

  const cases: { name: string; change: () => Promise<unknown>; resource: string; field?: string; action: string }[] = [
    {
      name: "a field edited",
      change: () => s.call("PATCH", `/api/v1/monitors/${ids.monitors.api}`, { timeout_sec: 20 }),
      resource: "api-health",
      field: "timeoutSec",
      action: "update",
    },
    {
      name: "an assertion changed",
      change: () =>
        s.call("PATCH", `/api/v1/monitors/${ids.monitors.api}`, {
          assertions: [
            { source: "headers", property: "content-type", comparison: "contains", target: "json" },
            { source: "json_body", property: "$.status", comparison: "equals", target: "degraded" },
            { source: "response_time", comparison: "less_than", target: "3000" },
          ],
        }),
      resource: "api-health",
      field: "assertions",
      action: "update",
    },
    {
      name: "a monitor paused",
      change: () => s.call("POST", `/api/v1/monitors/${ids.monitors.homepage}/pause`),
      resource: "homepage",
      field: "paused",
      action: "update",
    },
    {
      name: "an object deleted",
      change: () => s.call("DELETE", `/api/v1/monitors/${ids.monitors.port}`),
      resource: "web-port",
      action: "create",
    },
    {
      name: "a channel removed from a monitor",
      change: () =>
        s.call("PATCH", `/api/v1/monitors/${ids.monitors.homepage}`, { channel_ids: [ids.channels.oncall] }),
      resource: "homepage",
      field: "channelIds",
      action: "update",
    },
    {
      name: "a status page slug changed",
      change: () => s.call("PATCH", `/api/v1/status-pages/${ids.page}`, { slug: "renamed-by-hand" }),
      resource: "public-status",
      field: "slug",
      action: "update",
    },
  ];

  it("reports each kind of drift made by hand, in one run; refresh + up restore them all; then preview is clean", async () => {
    // One drift run over all the cases: each is a separate object or field, so the report must name every one.
    for (const c of cases) await c.change();
    const { code, report } = await driftCommand(engine, program.workDir);
    expect(code).toBe(2);
    expect(report.inSync).toBe(false);
    for (const c of cases) {
      const drifted = report.resources.find((r) => r.name === c.resource);
      expect(drifted, `${c.name}: ${JSON.stringify(report)}`).toBeDefined();
      expect(drifted?.action, c.name).toBe(c.action);
      if (c.field)
        expect(
          drifted?.fields.map((f) => f.field),
          c.name,
        ).toContain(c.field);
    }
    // Only those: every other resource of the example reads back as it was declared.
    expect(report.resources.map((r) => r.name).sort()).toEqual([...new Set(cases.map((c) => c.resource))].sort());

    const preview = await stack.preview({ refresh: true });
    const drifted = new Set(cases.filter((c) => c.action === "update").map((c) => c.resource));
    expect(preview.changeSummary.update).toBe(drifted.size);
    expect(preview.changeSummary.create).toBe(cases.filter((c) => c.action === "create").length);

    await stack.refresh();
    await refreshIds(await stack.up());
    expect((await stack.preview()).changeSummary).toEqual({ same: resources });
  });

  it("after every repair, a second up changes nothing and drift reports the stack in sync (exit 0)", async () => {
    const again = await stack.up();
    expect(again.summary.resourceChanges).toEqual({ same: resources });
    const { code, report } = await driftCommand(engine, program.workDir);
    expect({ code, inSync: report.inSync }).toEqual({ code: 0, inSync: true });
  });
});
