import { beforeAll, describe, expect, it } from "vitest";
import { ensureBrowserTools } from "../support/browser-tools";
import { useServer, useStack, useTarget } from "../support/engine-suite";
import { startLoginSite } from "../support/login-site";
import { eventually } from "../support/target";
import { expectNotInState } from "./native";

const PASSWORD = "yaml-pw-81c4e2";

describe("a browser monitor in YAML through the native plugin", () => {
  beforeAll(() => ensureBrowserTools());
  const s = useServer({ checker: true, minIntervalSec: 1 });
  const site = useTarget(() => startLoginSite(PASSWORD));
  const { stack, native } = useStack({
    program: "native-browser-yaml",
    native: {},
    server: s,
    config: () => ({ siteUrl: { value: site.url }, password: { value: PASSWORD, secret: true } }),
  });

  it("deploys the script read from its file; the check logs in and is up; a second preview is clean; the password is in no state", async () => {
    const up = await stack.up();
    const id = up.outputs.id?.value as string;
    const monitor = (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
    // Variables are write-only: reads give each one's fingerprint, never its value.
    expect(monitor).toMatchObject({
      type: "browser",
      variables: {
        SITE_URL: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
        PASSWORD: expect.stringMatching(/^hmac-sha256:/),
      },
    });
    expect(monitor.script).toContain('test("log in and see the dashboard"');
    const [hb] = await eventually(async () => {
      const list = (await s.call("GET", `/api/v1/monitors/${id}/heartbeats`)).body.data as { status: string }[];
      return list.length > 0 ? list : undefined;
    }, 90_000);
    expect(hb).toMatchObject({ status: "up" });
    expect((await stack.preview()).changeSummary).toEqual({ same: 2 });
    expectNotInState(native.engine, id, [PASSWORD]);
  }, 400_000);
});
