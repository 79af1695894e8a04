import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useCheckerRig } from "../../support/checker-rig";
import { startReceiver, type Receiver } from "../../support/receiver";
import { eventually, startTarget } from "../../support/target";

const METRICS_KEY = "metrics-key-0123456789abcdef";

/** One sample per line: `name{label="v",…} value`; comments skipped. */
function parse(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
      );
      return { name: m[1] as string, labels, value: Number(m[3]) };
    });
}

describe("/metrics", () => {
  const s = useCheckerRig(() => startTarget(), { metricsKey: METRICS_KEY, location: "eu-test" });
  let failing: Receiver;
  beforeAll(async () => {
    failing = await startReceiver(500);
  });
  afterAll(() => failing?.close());

  const scrape = async (key: string | null = METRICS_KEY) => {
    const res = await request(`${s.server.url}/metrics`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    return { status: res.statusCode, type: res.headers["content-type"], text: await res.body.text() };
  };
  const value = (samples: ReturnType<typeof parse>, name: string, labels: Record<string, string> = {}) =>
    samples
      .filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))
      .reduce((sum, x) => sum + x.value, 0);

  it("is refused without the metrics key, and with an account's key", async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape(s.server.key)).status).toBe(401);
    expect((await scrape("wrong-key-0123456789abcdef")).status).toBe(401);
  });

  it("moves every metric during a checker scenario: checks, lag, probe time, notifications, requests, size, incidents", async () => {
    const before = parse((await scrape()).text);
    const hook = async (url: string) =>
      (await s.call("POST", "/api/v1/channels", { name: "hook", type: "webhook", config: { url } })).body.data.id;
    const channelIds = [await hook(`${s.receiver.url}/ok`), await hook(`${failing.url}/fails`)];
    const m = await s.probe("Site", { channel_ids: channelIds });
    await eventually(async () => (await s.monitor(m.id)).health === "up");
    s.target.healthy = false;
    await eventually(async () => (await s.monitor(m.id)).health === "down");
    await s.receiver.waitFor(1);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = await eventually(async () => {
      const samples = parse((await scrape()).text);
      return value(samples, "uptime_notifications_failed_total", { channel_type: "webhook" }) >= 1 && samples;
    });
    const moved = (name: string, labels?: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    expect(moved("uptime_checks_total", { result: "up", location: "eu-test" })).toBeGreaterThanOrEqual(1);
    expect(moved("uptime_checks_total", { result: "down", location: "eu-test" })).toBeGreaterThanOrEqual(1);
    expect(moved("uptime_scheduler_lag_seconds_count")).toBeGreaterThanOrEqual(2);
    expect(moved("uptime_probe_duration_seconds_count", { type: "http" })).toBeGreaterThanOrEqual(2);
    expect(value(after, "uptime_scheduler_lag_seconds_bucket", { le: "+Inf" })).toBe(
      value(after, "uptime_scheduler_lag_seconds_count"),
    );
    expect(moved("uptime_notifications_sent_total", { channel_type: "webhook" })).toBe(1);
    expect(moved("uptime_notifications_failed_total", { channel_type: "webhook" })).toBe(1);
    expect(moved("uptime_http_requests_total", { method: "POST", route: "/api/v1/monitors", status: "201" })).toBe(1);
    expect(moved("uptime_http_requests_total", { method: "GET", route: "/metrics", status: "401" })).toBe(0);
    expect(value(after, "uptime_database_size_bytes")).toBeGreaterThan(0);
    expect(value(after, "uptime_open_incidents")).toBe(1);
    // Route templates, never raw paths with ids.
    expect(after.some((x) => x.labels.route?.includes(m.id))).toBe(false);
    expect(after.some((x) => x.labels.route === "/api/v1/monitors/:id" && x.labels.method === "GET")).toBe(true);

    s.target.healthy = true;
    await eventually(async () => (await s.monitor(m.id)).health === "up");
    expect(value(parse((await scrape()).text), "uptime_open_incidents")).toBe(0);
  });
});
