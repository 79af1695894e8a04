import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckerAgent } from "../../server/agents/agent";
import * as runtime from "../../provider/runtime";
import { startServer, type TestServer } from "../support/server";
import { eventually } from "../support/target";

/**
 * `pulumi preview` (the provider's check) judges a monitor's target as the server will at create:
 * by the outbound policy of each of its locations, as `GET /api/v1/locations` lists them.
 */
describe("Monitor: the target checked at preview by its locations' outbound policy", () => {
  let s: TestServer;
  let agent: CheckerAgent;
  let connection: { baseUrl: string; apiKey: string };

  beforeAll(async () => {
    s = await startServer({ allowPrivateTargets: false });
    const key = (await s.app.store.keys.create("dev", "office agent", undefined, "office-lan")).key;
    agent = new CheckerAgent({
      server: s.url,
      key,
      location: "office-lan",
      allowPrivateTargets: true,
      concurrency: 2,
      maxBuffered: 10,
      waitMs: 300,
    });
    agent.start();
    await eventually(async () =>
      ((await s.call("GET", "/api/v1/locations")).body.data as { allow_private_targets: boolean | null }[]).every(
        (l) => l.allow_private_targets !== null,
      ),
    );
    connection = { baseUrl: s.url, apiKey: s.key };
  });
  afterAll(async () => {
    await agent?.stop(1_000);
    await s?.close();
  });

  const inputs = (url: string, locations?: string[]) => ({
    name: "wiki",
    type: "http",
    url,
    intervalSec: 60,
    ...(locations ? { locations } : {}),
    connection,
  });

  it("passes a private name checked from a private-network agent, and the server takes it", async () => {
    const checked = await runtime.check("Monitor", {}, inputs("http://wiki.corp.internal/", ["office-lan"]));
    expect(checked.failures).toEqual([]);
    const created = await runtime.create("Monitor", checked.inputs as Record<string, unknown>);
    await runtime.remove("Monitor", created.id, created.outs as Record<string, unknown>);
  });

  it("fails it for the built-in checker with the server's own words", async () => {
    const checked = await runtime.check("Monitor", {}, inputs("http://wiki.corp.internal/"));
    const server = await s.call("POST", "/api/v1/monitors", {
      name: "wiki",
      type: "http",
      url: "http://wiki.corp.internal/",
      interval_sec: 60,
    });
    expect(checked.failures).toEqual([{ property: "url", reason: server.body.error.details[0].message }]);
    expect(checked.failures?.[0]?.reason).toContain(
      "wiki.corp.internal is a local name; start the server with --allow-private-targets",
    );
    expect((await runtime.check("Monitor", {}, inputs("https://example.com/"))).failures).toEqual([]);
  });
});
