import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";
import { startTarget, type Target } from "../support/target";
import { useServer, useStarted } from "../support/use-server";

describe("dry run of a monitor (POST /api/v1/monitors/test)", () => {
  let s: TestServer;
  let ok: Target;
  let slow: Target;
  let json: Target;
  beforeAll(async () => {
    s = await startServer({ minIntervalSec: 1 });
    [ok, slow, json] = await Promise.all([startTarget(), startTarget(), startTarget()]);
    slow.delayMs = 300;
    json.contentType = "application/json";
    json.body = JSON.stringify({ status: "down" });
  });
  afterAll(async () => {
    await s.close();
    await Promise.all([ok.close(), slow.close(), json.close()]);
  });

  const spec = (over: Record<string, unknown>) => ({ name: "dry", type: "http", interval_sec: 60, ...over });
  const dryRun = (body: unknown) => s.call("POST", "/api/v1/monitors/test", body);

  it("runs a passing check and answers what a stored check would record, storing nothing", async () => {
    const beforeList = (await s.call("GET", "/api/v1/monitors")).body.data;
    const res = await dryRun(
      spec({
        url: ok.url,
        headers: { "x-token": "s3cret" },
        assertions: [{ source: "status_code", comparison: "equals", target: "200" }],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "up",
      error: null,
      error_class: null,
      status_code: 200,
      cert_expires_at: null,
      cert_days_left: null,
    });
    expect(res.body.data.assertions).toEqual([
      expect.objectContaining({ source: "status_code", pass: true, actual: "200" }),
    ]);
    expect(res.body.data.timings).toMatchObject({ first_byte_ms: expect.any(Number), total_ms: expect.any(Number) });
    expect(ok.hits).toBe(1);
    expect((await s.call("GET", "/api/v1/monitors")).body.data).toEqual(beforeList);
  });

  it("reports degraded for a target slower than degraded_response_ms", async () => {
    const res = await dryRun(spec({ url: slow.url, degraded_response_ms: 100 }));
    expect(res.body.data).toMatchObject({ status: "degraded", error: null });
    expect(res.body.data.response_time_ms).toBeGreaterThanOrEqual(300);
  });

  it("fails on a JSON assertion, naming it, with the assertion error class", async () => {
    const res = await dryRun(
      spec({
        url: json.url,
        assertions: [{ source: "json_body", property: "$.status", comparison: "equals", target: "ok" }],
      }),
    );
    expect(res.body.data).toMatchObject({ status: "down", error_class: "assertion" });
    expect(res.body.data.error).toMatch(/json_body \$\.status equals "ok": found "down"/);
    expect(res.body.data.assertions[0]).toMatchObject({ pass: false, actual: "down" });
  });

  it("answers nothing to run for a heartbeat monitor", async () => {
    const res = await dryRun({ name: "cron", type: "heartbeat", url: null, interval_sec: 60 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "nothing_to_run", timings: null });
    expect(res.body.data.error).toMatch(/nothing to run/);
  });

  it("refuses an address the outbound policy never reaches with a 422 naming url", async () => {
    const res = await dryRun(spec({ url: "http://169.254.169.254/latest/meta-data" }));
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      expect.objectContaining({ field: "url", message: expect.stringMatching(/link-local|never reached/) }),
    ]);
  });

  it("validates the spec exactly as a create does: a 422 naming the field", async () => {
    const body = spec({ url: ok.url, timeout_sec: 60, interval_sec: 60, channel_ids: ["chn_nope"] });
    const [test, create] = await Promise.all([dryRun(body), s.call("POST", "/api/v1/monitors", body)]);
    expect(test.status).toBe(422);
    expect(test.body.error.details).toEqual(create.body.error.details);
    expect(test.body.error.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(["timeout_sec", "channel_ids[0]"]),
    );
  });

  it("runs a stored monitor by id without a heartbeat, a health change or a checked time", async () => {
    const m = (
      await s.call(
        "POST",
        "/api/v1/monitors",
        spec({
          url: json.url,
          assertions: [{ source: "json_body", property: "$.status", comparison: "equals", target: "ok" }],
        }),
      )
    ).body.data;
    const res = await s.call("POST", `/api/v1/monitors/${m.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("down");
    expect((await s.call("GET", `/api/v1/monitors/${m.id}/heartbeats`)).body.data).toEqual([]);
    expect((await s.call("GET", `/api/v1/monitors/${m.id}`)).body.data).toMatchObject({
      health: "pending",
      last_checked_at: null,
    });
    expect((await s.call("POST", "/api/v1/monitors/mon_missing/test")).status).toBe(404);
  });

  it("runs at most 4 dry runs of a key at once: the fifth is a 429 with Retry-After", async () => {
    slow.delayMs = 500;
    const answers = await Promise.all(Array.from({ length: 5 }, () => dryRun(spec({ url: slow.url }))));
    slow.delayMs = 300;
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.body.error.code).toBe("rate_limited");
    expect(refused?.headers["retry-after"]).toBe("1");
    expect((await dryRun(spec({ url: ok.url }))).status).toBe(200);
  });
});

describe("dry runs count against the key's rate limit", () => {
  const s = useServer({ rateLimit: 3 });
  const target = useStarted("the target", startTarget);

  it("answers 429 rate_limited once the key's requests are spent, and runs no check then", async () => {
    const body = { name: "dry", type: "http", url: target.url, interval_sec: 60 };
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await s.call("POST", "/api/v1/monitors/test", body));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3]?.body.error.code).toBe("rate_limited");
    expect(target.hits).toBe(3);
  });
});
