import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckerAgent } from "../../../server/agents/agent";
import { startServer, type TestServer } from "../../support/server";
import { eventually, startTarget, type Target } from "../../support/target";

/**
 * A monitor's target is judged by the places that will probe it: the server's own policy for the
 * built-in checker, an agent location's for its agents. A server that may not reach private
 * addresses still takes a private name for a private-network agent started with
 * --allow-private-targets, and that agent probes it.
 */
describe("targets judged by the outbound policy of the monitor's locations", () => {
  let s: TestServer;
  let target: Target;
  const agents: CheckerAgent[] = [];

  beforeAll(async () => {
    s = await startServer({
      checker: true,
      allowPrivateTargets: false,
      minIntervalSec: 1,
      leaseMs: 1_000,
      agentLiveMs: 3_000,
    });
    target = await startTarget();
    for (const [location, allowPrivateTargets] of [
      ["office-lan", true],
      ["dmz", false],
    ] as const) {
      const key = (await s.app.store.keys.create("dev", `${location} agent`, undefined, location)).key;
      const agent = new CheckerAgent({
        server: s.url,
        key,
        location,
        allowPrivateTargets,
        concurrency: 4,
        maxBuffered: 100,
        waitMs: 300,
      });
      agents.push(agent);
      agent.start();
    }
    await s.app.store.keys.create("dev", "vpn agent", undefined, "vpn-gw");
    // Each agent reports its policy with its first lease request.
    const policies = async () => {
      const listed = (await s.call("GET", "/api/v1/locations")).body.data as {
        name: string;
        allow_private_targets: boolean | null;
      }[];
      return Object.fromEntries(listed.map((l) => [l.name, l.allow_private_targets]));
    };
    await eventually(async () => (await policies())["dmz"] === false && (await policies())["office-lan"] === true);
    expect(await policies()).toEqual({ local: false, "office-lan": true, dmz: false, "vpn-gw": null });
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop(1_000)));
    await s.close();
    await target.close();
  });

  const create = (url: string, locations: string[] | null) =>
    s.call("POST", "/api/v1/monitors", { name: "wiki", type: "http", url, interval_sec: 60, locations });

  it("takes a private name for an agent location that may reach it, and the agent probes it", async () => {
    const wiki = await create("http://wiki.corp.internal/", ["office-lan"]);
    expect(wiki.status).toBe(201);
    // A loopback target, which only office-lan's agent may reach: its agent checks it and finds it up.
    const local = await create(target.url, ["office-lan"]);
    expect(local.status).toBe(201);
    const beat = await eventually(async () => {
      const beats = (await s.call("GET", `/api/v1/monitors/${local.body.data.id}/heartbeats`)).body.data as {
        status: string;
        location: string;
      }[];
      return beats[0];
    });
    expect(beat).toMatchObject({ status: "up", location: "office-lan" });
    for (const m of [wiki, local]) await s.call("DELETE", `/api/v1/monitors/${m.body.data.id}`);
  });

  it("refuses it for the built-in checker and for an agent location that may not, naming what to change", async () => {
    const builtin = await create("http://wiki.corp.internal/", null);
    expect(builtin.status).toBe(422);
    expect(builtin.body.error.details).toEqual([
      {
        field: "url",
        message:
          "must not point at a private, loopback or metadata host: wiki.corp.internal is a local name; start the server with --allow-private-targets to reach it",
      },
    ]);
    const both = await create("http://wiki.corp.internal/", ["dmz", "office-lan"]);
    expect(both.status).toBe(422);
    expect(both.body.error.details[0].message).toBe(
      "must not point at a private, loopback or metadata host: wiki.corp.internal is a local name; the agents of location dmz run without --allow-private-targets: start them with it to reach it",
    );
    // Metadata hosts are refused wherever the check runs.
    const metadata = await create("http://169.254.169.254/latest/meta-data/", ["office-lan"]);
    expect(metadata.status).toBe(422);
    expect(metadata.body.error.details[0].message).toContain(
      "169.254.169.254 is a linkLocal address, which is never reached",
    );
  });

  it("takes it for a location whose agents have not reported yet: they apply their own policy when they probe", async () => {
    const pending = await create("http://wiki.corp.internal/", ["vpn-gw"]);
    expect(pending.status).toBe(201);
    await s.call("DELETE", `/api/v1/monitors/${pending.body.data.id}`);
  });
});
