import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OfflineEngine, offlineEngine } from "../../scripts/pulumi-engine";
import { startServer, type TestServer } from "../support/server";
import { programCopy } from "./programs";

const PASSWORD = "engine-page-password-7c1e";

describe("a status page declared in TypeScript: sections, components, a custom domain, a password and an incident rule", () => {
  let s: TestServer;
  let engine: OfflineEngine;
  let stack: Stack;
  let program: { workDir: string; remove: () => void };
  let pageId: string;

  beforeAll(async () => {
    s = await startServer();
    engine = await offlineEngine();
    program = programCopy("test/engine/programs/status-page");
    stack = await engine.stack(program.workDir, "dev");
    await stack.setAllConfig({
      "uptime:baseUrl": { value: s.url },
      "uptime:apiKey": { value: s.key, secret: true },
      slug: { value: "engine-page" },
      domain: { value: "status.example.test" },
      pagePassword: { value: PASSWORD, secret: true },
    });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    engine?.dispose();
    program?.remove();
    await s?.close();
  });

  it("deploys the page as declared, and a second preview is clean", async () => {
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    // The outputs `up` returned (a `stack.outputs()` would be two more CLI runs).
    pageId = up.outputs.statusPageId?.value as string;
    const live = (await s.call("GET", `/api/v1/status-pages/${pageId}`)).body.data;
    expect(
      live.sections.map((sec: { name: string; components: { key: string }[] }) => [
        sec.name,
        sec.components.map((c) => c.key),
      ]),
    ).toEqual([
      ["Core", ["api", "web"]],
      ["Help", ["docs", "support"]],
    ]);
    expect(live).toMatchObject({
      custom_domain: "status.example.test",
      password_set: true,
      locale: "de",
      brand_color: "#0969da",
    });
    expect(live.incident_rules).toEqual([
      {
        component: "api",
        tag: null,
        minutes: 5,
        title: "{name} is down",
        message: "{name} has been down for {minutes} minutes.",
      },
    ]);
    // The password is a secret in state (exportStack shows it decrypted, under the secret signature).
    const state = (await stack.exportStack()).deployment as {
      resources: { type: string; outputs?: { password?: unknown } }[];
    };
    const pageState = state.resources.find((r) => r.type.endsWith(":StatusPage"));
    expect(pageState?.outputs?.password).toEqual({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      plaintext: JSON.stringify(PASSWORD),
    });
    const preview = await stack.preview({ diff: true });
    expect(preview.changeSummary).toEqual({ same: 7 });
  });

  it("reports a component renamed through the API as drift, which `up` repairs; a manual state set through the API is not drift", async () => {
    expect(
      (await s.call("PATCH", `/api/v1/status-pages/${pageId}/components/web`, { name: "Web (renamed by hand)" }))
        .status,
    ).toBe(200);
    expect(
      (await s.call("PUT", `/api/v1/status-pages/${pageId}/components/support`, { state: "degraded" })).status,
    ).toBe(200);
    await stack.refresh();
    const drift = await stack.preview({ diff: true });
    expect(drift.changeSummary).toMatchObject({ update: 1 });
    expect(drift.stdout).toMatch(/sections/);
    await stack.up();
    const repaired = (await s.call("GET", `/api/v1/status-pages/${pageId}`)).body.data;
    expect(repaired.sections[0].components[1].name).toBe("Website");
    expect((await s.call("GET", `/api/v1/status-pages/${pageId}/components/support`)).body.data.state).toBe("degraded");
    expect((await stack.preview()).changeSummary).toEqual({ same: 7 });
  });
});
