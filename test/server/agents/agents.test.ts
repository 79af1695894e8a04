import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckerAgent } from "../../../server/agents/agent";
import { type Receiver, startReceiver } from "../../support/receiver";
import { startServer, type TestServer, webhookChannel, httpMonitorId, postMonitor } from "../../support/server";
import { eventually, startTarget, type Target } from "../../support/target";

const outcome = { up: true, response_time_ms: 5, status_code: 200, error: null };

describe("checker agents and locations", () => {
  let s: TestServer;
  let target: Target;
  let receiver: Receiver;
  let euKey: string;
  let usKey: string;
  const agents: CheckerAgent[] = [];

  beforeAll(async () => {
    s = await startServer({
      checker: true,
      minIntervalSec: 1,
      leaseMs: 1_000,
      agentLiveMs: 3_000,
      notifyRetryDelaysMs: [100],
    });
    euKey = (await s.app.store.keys.create("dev", "eu agent", undefined, "eu")).key;
    usKey = (await s.app.store.keys.create("dev", "us agent", undefined, "us")).key;
    target = await startTarget();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop(1_000)));
    await s.close();
    await target.close();
    await receiver.close();
  });

  const lease = (key: string, agent_id: string, max = 100) =>
    s.call("POST", "/api/v1/agent/leases", { agent_id, max }, { key });
  const post = (key: string, agent_id: string, results: object[]) =>
    s.call("POST", "/api/v1/agent/results", { agent_id, results }, { key });
  const agent = (key: string, location: string, allowPrivateTargets: boolean) => {
    const a = new CheckerAgent({
      server: s.url,
      key,
      location,
      allowPrivateTargets,
      concurrency: 8,
      maxBuffered: 100,
      waitMs: 500,
    });
    agents.push(a);
    a.start();
    return a;
  };

  it("an agent key is refused on the management API (403), a management key on the agent API", async () => {
    const asAgent = await s.call("GET", "/api/v1/monitors", undefined, { key: euKey });
    expect(asAgent.status).toBe(403);
    expect(asAgent.body.error).toMatchObject({ code: "forbidden" });
    expect(asAgent.body.error.message).toContain("agent key (location eu)");
    const asManager = await lease(s.key, "x");
    expect(asManager.status).toBe(403);
  });

  it("an unknown location is a 422 naming it; locations are a sorted set; the threshold stays within them", async () => {
    const bad = await s.call("POST", "/api/v1/monitors", {
      name: "m",
      type: "http",
      url: target.url,
      interval_sec: 60,
      locations: ["eu", "mars"],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([
      expect.objectContaining({
        field: "locations[1]",
        message: expect.stringContaining("mars is not one of the account's locations"),
      }),
    ]);
    const over = await s.call("POST", "/api/v1/monitors", {
      name: "m",
      type: "http",
      url: target.url,
      interval_sec: 60,
      locations: ["eu"],
      failure_threshold: 2,
    });
    expect(over.body.error.details).toEqual([
      { field: "failure_threshold", message: "must be at most the number of locations (1)" },
    ]);
    const ok = await s.call("POST", "/api/v1/monitors", {
      name: "m",
      type: "http",
      url: target.url,
      interval_sec: 60,
      locations: ["us", "eu", "us"],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({
      locations: ["eu", "us"],
      failure_threshold: 1,
      unchecked_locations: ["eu", "us"],
    });
    const plain = await s.call("POST", "/api/v1/monitors", {
      name: "p",
      type: "http",
      url: target.url,
      interval_sec: 60,
    });
    expect(plain.body.data).toMatchObject({ locations: null, unchecked_locations: [] });
    await s.call("DELETE", `/api/v1/monitors/${ok.body.data.id}`);
    await s.call("DELETE", `/api/v1/monitors/${plain.body.data.id}`);
  });

  it("records a result posted twice once, hands an expired lease to another agent, refuses a deleted monitor's result", async () => {
    const id = await httpMonitorId(s, "leased", target.url, { locations: ["eu"] });
    const first = await lease(euKey, "eu-1");
    const mine = first.body.data.leases.filter((l: { monitor: { id: string } }) => l.monitor.id === id);
    expect(mine).toHaveLength(1);
    expect(mine[0].monitor.url).toBe(target.url);
    const key = mine[0].check_key;
    // eu-1 never answers: after the lease (1 s) eu-2 gets the same check.
    expect((await lease(euKey, "eu-2")).body.data.leases).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 1_100));
    const taken = await lease(euKey, "eu-2");
    expect(taken.body.data.leases.map((l: { check_key: string }) => l.check_key)).toEqual([key]);
    const result = {
      check_key: key,
      started_at: new Date().toISOString(),
      checked_at: new Date().toISOString(),
      outcome,
    };
    expect((await post(euKey, "eu-2", [result])).body.data.results).toEqual([{ check_key: key, status: "recorded" }]);
    expect((await post(euKey, "eu-1", [result])).body.data.results).toEqual([{ check_key: key, status: "duplicate" }]);
    const beats = (await s.call("GET", `/api/v1/monitors/${id}/heartbeats`)).body.data;
    expect(beats).toHaveLength(1);
    expect(beats[0]).toMatchObject({ location: "eu", status: "up" });
    // Another location's key cannot post eu's checks.
    expect((await post(usKey, "us-1", [result])).body.data.results[0]).toMatchObject({
      status: "refused",
      reason: expect.stringContaining("location eu's"),
    });
    await s.call("DELETE", `/api/v1/monitors/${id}`);
    const gone = { ...result, check_key: key.replace(/\d+$/, "1") };
    expect((await post(euKey, "eu-1", [gone])).body.data.results[0]).toMatchObject({
      status: "refused",
      reason: `monitor ${id} was deleted`,
    });
  });

  it("refuses the result of a check whose monitor moved to another location, and no longer leases it there", async () => {
    const id = await httpMonitorId(s, "moving", target.url, { locations: ["eu"] });
    const leased = (await lease(euKey, "eu-3")).body.data.leases.find(
      (l: { monitor: { id: string } }) => l.monitor.id === id,
    );
    expect(leased).toBeDefined();
    expect((await s.call("PATCH", `/api/v1/monitors/${id}`, { locations: ["us"] })).status).toBe(200);
    const result = {
      check_key: leased.check_key,
      started_at: new Date().toISOString(),
      checked_at: new Date().toISOString(),
      outcome,
    };
    expect((await post(euKey, "eu-3", [result])).body.data.results[0]).toEqual({
      check_key: leased.check_key,
      status: "refused",
      reason: `monitor ${id} is no longer checked at location eu`,
    });
    expect(
      (await lease(usKey, "us-3")).body.data.leases.map((l: { monitor: { id: string } }) => l.monitor.id),
    ).toContain(id);
    await s.call("DELETE", `/api/v1/monitors/${id}`);
  });

  it("a waiting lease request whose agent hung up takes no check: the next agent gets it at once", async () => {
    const hangUp = new AbortController();
    const waiting = fetch(`${s.url}/api/v1/agent/leases`, {
      method: "POST",
      headers: { authorization: `Bearer ${euKey}`, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: "eu-dead", wait_ms: 5_000 }),
      signal: hangUp.signal,
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    hangUp.abort();
    await waiting;
    await new Promise((r) => setTimeout(r, 100));
    // Due at once: before, the dead request (polling every 100 ms) took it for a whole lease.
    const m = (await postMonitor(s, { type: "http", url: target.url, locations: ["eu"] })).body.data;
    await new Promise((r) => setTimeout(r, 300));
    const leased = (await lease(euKey, "eu-alive")).body.data.leases.map(
      (l: { monitor: { id: string } }) => l.monitor.id,
    );
    expect(leased).toContain(m.id);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
  });

  it("judges per location: a location that cannot reach the target is down; the threshold decides; notifications name it", async () => {
    // eu's outbound policy refuses loopback targets, us's allows them: eu fails, us passes. The
    // monitors come first: a location's policy is unknown until its agents report it, so the
    // server takes them, and the agent applies its own policy when it probes.
    const channel = await webhookChannel(s, "hook", { url: `${receiver.url}/hook` });
    const both = {
      type: "http",
      url: target.url,
      interval_sec: 2,
      timeout_sec: 1,
      locations: ["eu", "us"],
      channel_ids: [channel.id],
    };
    const created = await s.call("POST", "/api/v1/monitors", { ...both, name: "two", failure_threshold: 2 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const two = created.body.data;
    const one = (await s.call("POST", "/api/v1/monitors", { ...both, name: "one", failure_threshold: 1 })).body.data;
    agent(euKey, "eu", false);
    agent(usKey, "us", true);
    const stats = await eventually(async () => {
      const st = (await s.call("GET", `/api/v1/monitors/${two.id}/stats?days=1`)).body.data;
      const byLoc = Object.fromEntries(st.locations.map((l: { location: string }) => [l.location, l]));
      return byLoc.eu?.health === "down" && byLoc.us?.health === "up" && byLoc.eu.checks > 1 ? byLoc : undefined;
    });
    expect(stats.eu).toMatchObject({ live: true, up_checks: 0 });
    expect(stats.us).toMatchObject({ live: true, down_checks: 0 });
    expect((await s.call("GET", `/api/v1/monitors/${two.id}`)).body.data.health).toBe("up");
    await eventually(async () => (await s.call("GET", `/api/v1/monitors/${one.id}`)).body.data.health === "down");
    const [hook] = await receiver.waitFor(1);
    const event = JSON.parse(hook?.body ?? "{}");
    expect(event).toMatchObject({ event: "monitor.down", monitor: { id: one.id }, failed_locations: ["eu"] });
    const listed = (await s.call("GET", "/api/v1/locations")).body.data;
    expect(listed.map((l: { name: string }) => l.name)).toEqual(["eu", "local", "us"]);
    expect(listed.find((l: { name: string }) => l.name === "eu")).toMatchObject({
      live: true,
      builtin: false,
      agents: expect.arrayContaining([expect.objectContaining({ live: true })]),
    });
    expect(listed.find((l: { name: string }) => l.name === "local")).toMatchObject({ live: true, builtin: true });
  });
});
