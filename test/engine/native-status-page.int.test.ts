import { request } from "undici";
import { describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import { expectNotInState } from "./native";

const PASSWORD = "native-page-password-4b9d";

// The same page as test/engine/status-page.int.test.ts (TypeScript, dynamic resources), in YAML through the native plugin.
describe("a status page declared in YAML through the native plugin: sections, components, a custom domain, a password and an incident rule", () => {
  const s = useServer();
  const { stack, native } = useStack({
    program: "native-status-page",
    native: {},
    server: s,
    config: () => ({
      slug: { value: "native-page" },
      domain: { value: "status.example.test" },
      pagePassword: { value: PASSWORD, secret: true },
    }),
  });
  let pageId: string;

  it("deploys the page as declared, keeps the password in no state file, and a second preview is clean", async () => {
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    pageId = up.outputs.statusPageId?.value as string;
    expect(up.outputs.passwordSet?.value).toBe(true);
    const live = (await s.call("GET", `/api/v1/status-pages/${pageId}`)).body.data;
    expect(
      live.sections.map((sec: { name: string; components: { key: string; name: string }[] }) => [
        sec.name,
        sec.components.map((c) => [c.key, c.name]),
      ]),
    ).toEqual([
      [
        "Core",
        [
          ["api", "Public API"],
          ["web", "Website"],
        ],
      ],
      [
        "Help",
        [
          ["docs", "Documentation"],
          ["support", "Support desk"],
        ],
      ],
    ]);
    expect(live).toMatchObject({
      slug: "native-page",
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
    // The password works: the page on its domain refuses a visitor without it.
    const atDomain = await request(`${s.url}/`, { headers: { host: "status.example.test" } });
    await atDomain.body.dump();
    expect(atDomain.statusCode).toBe(401);
    expectNotInState(native.engine, pageId, [PASSWORD, s.key]);
    const preview = await stack.preview({ diff: true });
    expect(preview.changeSummary).toEqual({ same: 6 });
  });

  it("reports a component renamed through the API as drift, which `up` repairs; a manual state set through the API is not drift", async () => {
    expect(
      (await s.call("PATCH", `/api/v1/status-pages/${pageId}/components/web`, { name: "Web (renamed by hand)" }))
        .status,
    ).toBe(200);
    expect(
      (await s.call("PUT", `/api/v1/status-pages/${pageId}/components/support`, { state: "degraded" })).status,
    ).toBe(200);
    const drift = await stack.preview({ refresh: true, diff: true });
    expect(drift.changeSummary).toMatchObject({ update: 1 });
    expect(drift.stdout).toMatch(/sections/);
    await stack.refresh();
    await stack.up();
    const repaired = (await s.call("GET", `/api/v1/status-pages/${pageId}`)).body.data;
    expect(repaired.sections[0].components[1].name).toBe("Website");
    expect((await s.call("GET", `/api/v1/status-pages/${pageId}/components/support`)).body.data.state).toBe("degraded");
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 6 });
    expectNotInState(native.engine, pageId, [PASSWORD, s.key]);
  });
});
