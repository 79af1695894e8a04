import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useCheckerRig } from "../../support/checker-rig";
import { eventually } from "../../support/target";
import { webhookChannel } from "../../support/server";

/** A target that fails every other request (the first of each run, then the retry passes), or every one when `down`. */
async function startFlaky(): Promise<{ url: string; down: boolean; hits: number[]; close(): Promise<void> }> {
  let n = 0;
  const flaky = {
    url: "",
    down: false,
    hits: [] as number[],
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  const server: Server = createServer((_req, res) => {
    flaky.hits.push(Date.now());
    n++;
    if (flaky.down || n % 2 === 1) res.writeHead(503).end("unavailable");
    else res.writeHead(200).end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  flaky.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return flaky;
}

describe("retry strategies", () => {
  const s = useCheckerRig(() => startFlaky());
  let channel: string;
  beforeAll(async () => {
    channel = (await webhookChannel(s, "hook", { url: `${s.receiver.url}/retry` })).id;
  });
  afterAll(async () => undefined);

  const heartbeats = async (id: string) =>
    (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[];
  const create = async (retry: object, extra: object = {}) => {
    const res = await s.call("POST", "/api/v1/monitors", {
      name: "flaky",
      type: "http",
      url: s.target.url,
      interval_sec: 5,
      timeout_sec: 1,
      channel_ids: [channel],
      retry,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: string; retry: unknown };
  };

  it("a target that fails the first attempt passes on a linear retry: 2 attempts recorded, no alert", async () => {
    const m = await create({ strategy: "linear", delay: 200, retries: 3 });
    expect(m.retry).toEqual({
      strategy: "linear",
      delay: 200,
      retries: 3,
      duration: 60,
      trigger: "failure",
      location: "same",
    });
    const [hb] = await eventually(async () => {
      const hbs = await heartbeats(m.id);
      return hbs.length > 0 ? hbs : undefined;
    });
    expect(hb).toMatchObject({ status: "up" });
    const attempts = hb?.attempts as { up: boolean; status_code: number; started_ms: number }[];
    expect(attempts.map((a) => [a.up, a.status_code])).toEqual([
      [false, 503],
      [true, 200],
    ]);
    expect(attempts[1]?.started_ms).toBeGreaterThanOrEqual(200);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    expect(s.receiver.received).toHaveLength(0);
  });

  it("a target that stays down alerts once, after the last attempt, within the maximum duration", async () => {
    s.target.down = true;
    const before = s.target.hits.length;
    const m = await create({ strategy: "exponential", delay: 200, retries: 5, duration: 3 });
    const [event] = await s.receiver.waitFor(1);
    const hbs = await heartbeats(m.id);
    expect(hbs).toHaveLength(1);
    const attempts = hbs[0]?.attempts as { up: boolean; started_ms: number }[];
    // At 0, 200, 600 and 1400 ms: a fifth (at 3000 ms, and up to the 1 s timeout) could end past the 3 s.
    expect(attempts.map((a) => a.up)).toEqual([false, false, false, false]);
    expect(attempts.at(-1)?.started_ms).toBeLessThan(3_000);
    const hits = s.target.hits.slice(before, before + 4);
    expect((hits.at(-1) as number) - (hits[0] as number)).toBeGreaterThanOrEqual(1_400);
    expect(JSON.parse(event?.body ?? "")).toMatchObject({ event: "monitor.down", monitor: { id: m.id } });
    expect(Date.parse(hbs[0]?.checked_at as string)).toBeGreaterThanOrEqual(hits.at(-1) as number);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    expect(s.receiver.received).toHaveLength(1);
  });

  it("trigger network retries a refused connection but not a failed status; retry is refused on heartbeat monitors", async () => {
    const status = await create({ strategy: "fixed", delay: 100, retries: 2, trigger: "network" }, { channel_ids: [] });
    const hb = await eventually(async () => (await heartbeats(status.id)).find((h) => h.status === "down"));
    expect(hb.attempts).toBeUndefined();
    await s.call("DELETE", `/api/v1/monitors/${status.id}`);
    s.target.down = false;

    const closed = await create(
      { strategy: "fixed", delay: 100, retries: 2, trigger: "network" },
      { url: "http://127.0.0.1:9/", channel_ids: [] },
    );
    const refused = await eventually(async () => (await heartbeats(closed.id))[0]);
    expect((refused.attempts as { error_class: string }[]).map((a) => a.error_class)).toEqual([
      "connect",
      "connect",
      "connect",
    ]);
    await s.call("DELETE", `/api/v1/monitors/${closed.id}`);

    const heartbeat = await s.call("POST", "/api/v1/monitors", {
      name: "hb",
      type: "heartbeat",
      interval_sec: 60,
      retry: { strategy: "fixed" },
    });
    expect(heartbeat.status).toBe(422);
    expect(heartbeat.body.error.details).toContainEqual({
      field: "retry",
      message: "is not allowed for heartbeat monitors (they are pinged, not probed)",
    });
    const bad = await s.call("POST", "/api/v1/monitors", {
      name: "m",
      type: "http",
      url: s.target.url,
      interval_sec: 60,
      retry: { strategy: "linear", retries: 9 },
    });
    expect(bad.body.error.details).toContainEqual({ field: "retry.retries", message: "must be between 1 and 5" });
  });
});
