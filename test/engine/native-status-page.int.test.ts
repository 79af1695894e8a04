import { request } from "undici";
import { describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import { expectNotInState } from "./native";
import { expectDeclaredPage, expectRenameRepaired, pageConfig } from "./status-page";

const PASSWORD = "native-page-password-4b9d";

// The same page as test/engine/status-page.int.test.ts (TypeScript, dynamic resources), in YAML through the native plugin.
describe("a status page declared in YAML through the native plugin: sections, components, a custom domain, a password and an incident rule", () => {
  const s = useServer();
  const { stack, native } = useStack({
    program: "native-status-page",
    native: {},
    server: s,
    config: () => pageConfig("native-page", PASSWORD),
  });
  let pageId: string;

  it("deploys the page as declared, keeps the password in no state file, and a second preview is clean", async () => {
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    pageId = up.outputs.statusPageId?.value as string;
    expect(up.outputs.passwordSet?.value).toBe(true);
    await expectDeclaredPage(s, pageId, "native-page");
    // The password works: the page on its domain refuses a visitor without it.
    const atDomain = await request(`${s.url}/`, { headers: { host: "status.example.test" } });
    await atDomain.body.dump();
    expect(atDomain.statusCode).toBe(401);
    expectNotInState(native.engine, pageId, [PASSWORD, s.key]);
    const preview = await stack.preview({ diff: true });
    expect(preview.changeSummary).toEqual({ same: 6 });
  });

  it("reports a component renamed through the API as drift, which `up` repairs; a manual state set through the API is not drift", async () => {
    await expectRenameRepaired(s, stack, pageId, async () => {
      const drift = await stack.preview({ refresh: true, diff: true });
      await stack.refresh();
      return drift;
    });
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 6 });
    expectNotInState(native.engine, pageId, [PASSWORD, s.key]);
  });
});
