import { describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import { expectDeclaredPage, expectRenameRepaired, pageConfig } from "./status-page";

const PASSWORD = "engine-page-password-7c1e";

describe("a status page declared in TypeScript: sections, components, a custom domain, a password and an incident rule", () => {
  const s = useServer();
  const { stack } = useStack({
    program: "test/engine/programs/status-page",
    server: s,
    config: () => pageConfig("engine-page", PASSWORD),
  });
  let pageId: string;

  it("deploys the page as declared, and a second preview is clean", async () => {
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    // The outputs `up` returned (a `stack.outputs()` would be two more CLI runs).
    pageId = up.outputs.statusPageId?.value as string;
    await expectDeclaredPage(s, pageId, "engine-page");
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
    await expectRenameRepaired(s, stack, pageId, async () => {
      await stack.refresh();
      return stack.preview({ diff: true });
    });
    expect((await stack.preview()).changeSummary).toEqual({ same: 7 });
  });
});
