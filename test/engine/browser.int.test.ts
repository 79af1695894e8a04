import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBrowserTools } from "../support/browser-tools";
import { expectSecretNowhere, refusedPreview, useServer, useStack, useTarget } from "../support/engine-suite";
import { startLoginSite } from "../support/login-site";
import { eventually } from "../support/target";
import { cli } from "./cli";

const PASSWORD = "pw-5c1e9a77d2";

/** The parts of a heartbeat the test reads. */
interface Hb {
  id: string;
  status: string;
  browser: { url: string; steps: { name: string; error: string | null }[] };
}

/** Runs the provider's CLI (`pulumi-uptime test`) as a user's pipeline would: a separate process. */
describe("browser monitors deployed by the engine", () => {
  let ids: Record<"dashboard" | "promotion", string>;
  const output: string[] = [];
  const onOutput = (line: string) => output.push(line);

  beforeAll(() => ensureBrowserTools());
  const s = useServer({ checker: true, minIntervalSec: 1 });
  const site = useTarget(() => startLoginSite(PASSWORD));
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/browser",
    server: s,
    config: () => ({ siteUrl: { value: site.url }, password: { value: PASSWORD, secret: true } }),
  });

  it("a script that does not parse fails the preview, naming the field and the line", async () => {
    expect(await refusedPreview(stack, s, { brokenScript: { value: "true" } }, { onOutput })).toMatch(
      /script: does not parse as JavaScript: Unexpected token at line 1, column 37/,
    );
  }, 300_000);

  it("deploys both: the login check is up; the missing text fails with its line, a console error and a screenshot of the page", async () => {
    const up = await stack.up({ onOutput });
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    ids = up.outputs.ids?.value;
    const heartbeats = async (id: string) =>
      (await s.call("GET", `/api/v1/monitors/${id}/heartbeats`)).body.data as Hb[];
    const [ok] = await eventually(
      async () => ((await heartbeats(ids.dashboard)).length > 0 ? await heartbeats(ids.dashboard) : undefined),
      90_000,
    );
    expect(ok).toMatchObject({ status: "up", error: null });
    const [failed] = await eventually(
      async () => ((await heartbeats(ids.promotion)).length > 0 ? await heartbeats(ids.promotion) : undefined),
      90_000,
    );
    expect(failed).toMatchObject({
      status: "down",
      error_class: "assertion",
      browser: {
        failing_line: {
          line: 12,
          text: 'await expect(page.getByText("50% off everything")).toBeVisible({ timeout: 2000 });',
        },
        console_errors: ["orders widget failed to load"],
        screenshot: true,
      },
    });
    expect((failed as Hb).browser.steps.map((st) => [st.name, st.error !== null])).toEqual([
      ["log in", false],
      ["see the promotion", true],
      ["log in and see the promotion", true],
    ]);
    const res = await fetch(`${s.url}/api/v1/monitors/${ids.promotion}/heartbeats/${(failed as Hb).id}/screenshot`, {
      headers: { authorization: `Bearer ${s.key}` },
    });
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 720]);
    // The page it ended on; the site's address is one of the monitor's variables, so it is masked.
    expect((failed as Hb).browser.url).toBe("****/dashboard");
    expect((await stack.preview({ onOutput })).changeSummary).toEqual({ same: 4 });
  }, 400_000);

  it("`pulumi-uptime test` passes the login check and prints the other's failing step and where its screenshot is", async () => {
    const test = await cli(engine, program.workDir, ["test"]);
    output.push(test.stdout);
    // 2: a check failed.
    expect(test.code, test.stdout).toBe(2);
    expect(test.stdout).toMatch(/^dashboard\s+\S+\s+pass\b/m);
    expect(test.stdout).toMatch(/^promotion\s+\S+\s+fail\b/m);
    expect(test.stdout).toMatch(/see the promotion\s+fail/);
    const shot = /screenshot: (\S+\.png)/.exec(test.stdout)?.[1];
    expect(shot, test.stdout).toBeDefined();
    expect(existsSync(shot as string)).toBe(true);
    expect(
      readFileSync(shot as string)
        .subarray(0, 8)
        .toString("hex"),
    ).toBe("89504e470d0a1a0a");
  }, 400_000);

  it("a script changed outside the program is drift: the preview shows the script as the diff", async () => {
    await s.call("PATCH", `/api/v1/monitors/${ids.dashboard}`, { script: "await page.goto(process.env.SITE_URL);" });
    await stack.refresh({ onOutput });
    const preview = await stack.preview({ onOutput, diff: true });
    expect(preview.changeSummary).toEqual({ same: 3, update: 1 });
    expect(preview.stdout).toMatch(/~ script\s*:/);
    await stack.up({ onOutput });
    expect((await s.call("GET", `/api/v1/monitors/${ids.dashboard}`)).body.data.script).toContain(
      'test("log in and see the dashboard"',
    );
  }, 400_000);

  it("the password shows in no output and no state file", () => {
    expectSecretNowhere(engine, output, PASSWORD, "log in and see the dashboard");
  });
});
