import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgentLocation } from "../../support/agent-location";
import { ensureBrowserTools } from "../../support/browser-tools";
import { loginScript, type LoginSite, startLoginSite } from "../../support/login-site";
import { postMonitor, type TestServer } from "../../support/server";
import { eventually } from "../../support/target";

describe("browser monitors at an agent location", () => {
  let s: TestServer;
  let close: () => Promise<void>;
  let site: LoginSite;

  beforeAll(async () => {
    ensureBrowserTools();
    ({ s, close } = await startAgentLocation({ server: { leaseMs: 30_000 }, agent: { concurrency: 2 } }));
    await s.app.store.keys.create("dev", "us agent", undefined, "us");
    site = await startLoginSite();
  });
  afterAll(async () => {
    await close?.();
    await site?.close();
  });

  it("the agent reports that its machine runs browser checks; the server lists it per location", async () => {
    const locations = await eventually(async () => {
      const list = (await s.call("GET", "/api/v1/locations")).body.data as { name: string; browser: boolean | null }[];
      return list.find((l) => l.name === "eu")?.browser === true ? list : undefined;
    });
    expect(locations.find((l) => l.name === "eu")).toMatchObject({
      browser: true,
      agents: [expect.objectContaining({ browser: true })],
    });
    // No agent of "us" has reported yet: not known, not refused.
    expect(locations.find((l) => l.name === "us")).toMatchObject({ browser: null });
  });

  it("the agent runs a failing browser check and posts its evidence and screenshot, readable through the API", async () => {
    const res = await postMonitor(s, {
      type: "browser",
      timeout_sec: 15,
      locations: ["eu"],
      script: loginScript(site, "Welcome back, Grace"),
      variables: { PASSWORD: site.password },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id as string;
    const hb = await eventually(
      async () => ((await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as { id: string }[])[0],
      60_000,
    );
    expect(hb).toMatchObject({
      location: "eu",
      status: "down",
      error_class: "assertion",
      browser: { failing_line: { line: 9 }, console_errors: ["orders widget failed to load"], screenshot: true },
    });
    const png = await fetch(`${s.url}/api/v1/monitors/${id}/heartbeats/${hb.id}/screenshot`, {
      headers: { authorization: `Bearer ${s.key}` },
    });
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(0, 8)
        .toString("hex"),
    ).toBe("89504e470d0a1a0a");
    expect(JSON.stringify(hb)).not.toContain(site.password);
  });
});
