/**
 * What the status-page engine tests check of the page test/engine/programs/status-page (TypeScript)
 * and test/engine/programs/native-status-page (YAML through the native plugin) declare alike.
 */
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { expect } from "vitest";
import type { TestServer } from "../support/server";

/** The config both programs read: the page's slug, its custom domain and its password (a secret). */
export function pageConfig(slug: string, password: string): ConfigMap {
  return {
    slug: { value: slug },
    domain: { value: "status.example.test" },
    pagePassword: { value: password, secret: true },
  };
}

/** The page on the server is the one both programs declare (its slug is the stack's). */
export async function expectDeclaredPage(s: TestServer, pageId: string, slug: string): Promise<void> {
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
    slug,
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
}

/**
 * A component renamed through the API is drift that `up` repairs; a component's manual state set
 * through the API is not drift. `detect` refreshes and previews the stack, returning the preview.
 */
export async function expectRenameRepaired(
  s: TestServer,
  stack: Stack,
  pageId: string,
  detect: () => Promise<{ changeSummary: Record<string, number>; stdout: string }>,
): Promise<void> {
  expect(
    (await s.call("PATCH", `/api/v1/status-pages/${pageId}/components/web`, { name: "Web (renamed by hand)" })).status,
  ).toBe(200);
  expect((await s.call("PUT", `/api/v1/status-pages/${pageId}/components/support`, { state: "degraded" })).status).toBe(
    200,
  );
  const drift = await detect();
  expect(drift.changeSummary).toMatchObject({ update: 1 });
  expect(drift.stdout).toMatch(/sections/);
  await stack.up();
  const repaired = (await s.call("GET", `/api/v1/status-pages/${pageId}`)).body.data;
  expect(repaired.sections[0].components[1].name).toBe("Website");
  expect((await s.call("GET", `/api/v1/status-pages/${pageId}/components/support`)).body.data.state).toBe("degraded");
}
