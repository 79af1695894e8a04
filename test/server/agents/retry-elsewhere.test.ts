import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckerAgent } from "../../../server/agents/agent";
import { useCheckerRig } from "../../support/checker-rig";
import { eventually } from "../../support/target";
import { postMonitor, webhookChannel } from "../../support/server";
import { locationLive } from "../../support/agent-location";

/** A target that fails its first `failFirst` requests (then passes), or every one while `down`. */
async function startTarget(): Promise<{
  url: string;
  down: boolean;
  failFirst: number;
  hits: number;
  close(): Promise<void>;
}> {
  const t = {
    url: "",
    down: false,
    failFirst: 0,
    hits: 0,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  const server: Server = createServer((_req, res) => {
    t.hits++;
    if (t.down || t.failFirst-- > 0) res.writeHead(503).end("unavailable");
    else res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return t;
}

interface Attempt {
  up: boolean;
  location?: string;
  status_code: number | null;
}

describe("retries at other locations (retry.location: other)", () => {
  const s = useCheckerRig(() => startTarget(), { location: "local", leaseMs: 2_000, agentLiveMs: 3_000 });
  let agent: CheckerAgent;
  let channel: string;

  beforeAll(async () => {
    const key = (await s.server.app.store.keys.create("dev", "eu agent", undefined, "eu")).key;
    agent = new CheckerAgent({
      server: s.server.url,
      key,
      location: "eu",
      allowPrivateTargets: true,
      concurrency: 4,
      maxBuffered: 100,
      waitMs: 300,
    });
    agent.start();
    channel = (await webhookChannel(s, "hook", { url: `${s.receiver.url}/elsewhere` })).id;
    // The agent's location is live once it asked for work.
    await locationLive(s, "eu");
  });
  afterAll(async () => {
    await agent?.stop(1_000);
  });

  const heartbeats = async (id: string) =>
    (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as (Record<string, unknown> & {
      location: string;
      status: string;
      attempts?: Attempt[];
    })[];
  const create = async (retry: object) => {
    const res = await s.call("POST", "/api/v1/monitors", {
      name: "elsewhere",
      type: "http",
      url: s.target.url,
      interval_sec: 30,
      timeout_sec: 2,
      locations: ["local", "eu"],
      channel_ids: [channel],
      retry,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: string; retry: Record<string, unknown> };
  };

  it("a check that failed at one location passes on its retry at the other: the run is up, no alert", async () => {
    s.target.failFirst = 1;
    const m = await create({ strategy: "fixed", delay: 100, retries: 2, location: "other" });
    expect(m.retry).toEqual({
      strategy: "fixed",
      delay: 100,
      retries: 2,
      duration: 60,
      trigger: "failure",
      location: "other",
    });
    const hbs = await eventually(async () => {
      const all = await heartbeats(m.id);
      return all.length >= 2 ? all : undefined;
    });
    expect(hbs.map((h) => h.status)).toEqual(["up", "up"]);
    const retried = hbs.filter((h) => h.attempts);
    expect(retried).toHaveLength(1);
    const run = retried[0] as (typeof hbs)[number];
    const other = run.location === "local" ? "eu" : "local";
    expect(run.attempts?.map((a) => [a.location, a.up, a.status_code])).toEqual([
      [run.location, false, 503],
      [other, true, 200],
    ]);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    expect(s.receiver.received).toHaveLength(0);
  });

  it("a target down everywhere: each location's run tries the other location, is recorded once, and alerts once", async () => {
    s.target.down = true;
    const m = await create({ strategy: "fixed", delay: 100, retries: 2, location: "other" });
    const hbs = await eventually(async () => {
      const all = await heartbeats(m.id);
      return all.length >= 2 ? all : undefined;
    });
    // One run per location, each recorded once, each with 3 attempts: where it failed, then the other location twice.
    expect(hbs.map((h) => h.location).sort()).toEqual(["eu", "local"]);
    for (const hb of hbs) {
      const other = hb.location === "local" ? "eu" : "local";
      expect(hb.status).toBe("down");
      expect(hb.attempts?.map((a) => [a.location, a.up])).toEqual([
        [hb.location, false],
        [other, false],
        [other, false],
      ]);
    }
    const [event] = await s.receiver.waitFor(1);
    expect(JSON.parse(event?.body ?? "")).toMatchObject({ event: "monitor.down", monitor: { id: m.id } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await heartbeats(m.id)).toHaveLength(2);
    expect(s.receiver.received).toHaveLength(1);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    s.target.down = false;
  });

  it("'other' with one location is refused, naming the field; retries at a location that is not live run where the check failed", async () => {
    const one = await postMonitor(s, {
      type: "http",
      url: s.target.url,
      retry: { strategy: "fixed", location: "other" },
    });
    expect(one.status).toBe(422);
    expect(one.body.error.details).toContainEqual({
      field: "retry.location",
      message: '"other" needs 2 or more locations (the monitor has 1); use "same", or add locations',
    });

    // "us" has an agent key but no agent running: not live, so the built-in checker retries itself.
    await s.server.app.store.keys.create("dev", "us agent", undefined, "us");
    s.target.failFirst = 1;
    const res = await s.call("POST", "/api/v1/monitors", {
      name: "m",
      type: "http",
      url: s.target.url,
      interval_sec: 30,
      timeout_sec: 2,
      locations: ["local", "us"],
      retry: { strategy: "fixed", delay: 100, location: "other" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const hb = await eventually(async () => (await heartbeats(res.body.data.id)).find((h) => h.location === "local"));
    expect(hb.attempts?.map((a) => [a.location, a.up])).toEqual([
      ["local", false],
      ["local", true],
    ]);
    await s.call("DELETE", `/api/v1/monitors/${res.body.data.id}`);
  });
});
