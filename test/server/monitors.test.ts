import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";

const http = (over: Record<string, unknown> = {}) => ({
  name: "API health",
  type: "http",
  url: "https://api.example.com/health",
  interval_sec: 60,
  ...over,
});

describe("monitors API", () => {
  const s = useServer();

  it("creates a monitor with every writable field filled and normal forms applied", async () => {
    const res = await s.call(
      "POST",
      "/api/v1/monitors",
      http({
        headers: { "X-Token": "t", Accept: "text/html" },
        tags: ["Prod", "api", "prod"],
        expected_status_codes: ["2xx", 204, 200, 204],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.ok).toBe(true);
    const m = res.body.data;
    expect(m.id).toMatch(/^mon_/);
    expect(m).toMatchObject({
      name: "API health",
      type: "http",
      timeout_sec: 10,
      method: "GET",
      // A credential (by name) reads as its fingerprint, any other header as written.
      headers: { accept: "text/html", "x-token": expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/) },
      body: null,
      expected_status_codes: [200, 204, "2xx"],
      keyword: null,
      keyword_case_sensitive: false,
      follow_redirects: true,
      channel_ids: [],
      tags: ["api", "prod"],
      status: "active",
      health: "pending",
      last_checked_at: null,
    });
    expect(Date.parse(m.created_at)).not.toBeNaN();
    const read = await s.call("GET", `/api/v1/monitors/${m.id}`);
    expect(read.body.data).toEqual(m);
  });

  it("rejects each broken rule with the field named, and writes nothing", async () => {
    const before = (await s.call("GET", "/api/v1/monitors?limit=200")).body.data.length;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [http({ interval_sec: 10 }), "interval_sec", /between 30 and 86400/],
      [http({ interval_sec: 90_000 }), "interval_sec", /at most 86400/],
      [http({ timeout_sec: 60, interval_sec: 60 }), "timeout_sec", /less than interval_sec/],
      [http({ url: "ftp://example.com" }), "url", /http:\/\/ or https:\/\//],
      [http({ type: "tcp", url: "https://example.com" }), "url", /tcp:\/\/host:port/],
      [http({ type: "keyword" }), "keyword", /required for keyword/],
      [http({ keyword: "ok" }), "keyword", /only allowed for keyword/],
      [http({ body: "{}" }), "body", /not allowed with method GET/],
      [http({ type: "icmp" }), "type", /must be one of/],
      [http({ name: "" }), "name", /must not be empty/],
      [http({ expected_status_codes: [99] }), "expected_status_codes[0]", /status code/],
      [http({ headers: { "bad header": "x" } }), "headers.bad header", /header name/],
      [http({ channel_ids: ["chn_missing"] }), "channel_ids[0]", /does not exist/],
      [http({ colour: "red" }), "colour", /not a known field/],
      [http({ health: "up" }), "health", /read-only/],
      [{ type: "http", url: "https://x.example", interval_sec: 60 }, "name", /required/],
      [
        http({
          assertions: [
            { source: "status_code", comparison: "equals", target: "200" },
            { source: "headers", property: "content-type", comparison: "contains", target: "json" },
            { source: "json_body", property: "$.count", comparison: "greater_than", target: "many" },
          ],
        }),
        "assertions[2].target",
        /must be a number/,
      ],
      [
        http({ assertions: [{ source: "text_body", comparison: "matches", target: "a(?=b)" }] }),
        "assertions[0].target",
        /RE2 regular expression/,
      ],
      [
        http({ assertions: [{ source: "cookies", comparison: "equals", target: "1" }] }),
        "assertions[0].source",
        /must be one of/,
      ],
      [
        http({ assertions: [{ source: "text_body", comparison: "resembles", target: "1" }] }),
        "assertions[0].comparison",
        /must be one of/,
      ],
      [
        http({ assertions: [{ source: "status_code", comparison: "equals", target: 200 }] }),
        "assertions[0].target",
        /must be a string/,
      ],
      [
        http({ assertions: [{ source: "json_body", property: "$[?(@.x)]", comparison: "not_empty" }] }),
        "assertions[0].property",
        /filter or script/,
      ],
      [
        http({
          type: "tcp",
          url: "tcp://db.example.com:5432",
          assertions: [{ source: "status_code", comparison: "equals", target: "200" }],
        }),
        "assertions",
        /only allowed for http, keyword, grpc, websocket, udp, ping, smtp and domain monitors, not tcp/,
      ],
      [http({ degraded_response_ms: 500, max_response_ms: 500 }), "degraded_response_ms", /less than max_response_ms/],
      [http({ max_response_ms: 0 }), "max_response_ms", /between 1 and 60000/],
    ];
    for (const [body, field, message] of cases) {
      const res = await s.call("POST", "/api/v1/monitors", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
      const detail = res.body.error.details.find((d: { field: string }) => d.field === field);
      expect(detail, `${field} in ${JSON.stringify(res.body.error.details)}`).toBeDefined();
      expect(detail.message).toMatch(message);
    }
    expect((await s.call("GET", "/api/v1/monitors?limit=200")).body.data.length).toBe(before);
  });

  it("keeps assertions in order, header names lower-cased, absent parts as null", async () => {
    const assertions = [
      { source: "json_body", property: "$.status", comparison: "equals", target: "ok" },
      { source: "headers", property: "Content-Type", comparison: "contains", target: "json" },
      { source: "text_body", comparison: "not_empty" },
    ];
    const res = await s.call(
      "POST",
      "/api/v1/monitors",
      http({ assertions, degraded_response_ms: 800, max_response_ms: 3000 }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      degraded_response_ms: 800,
      max_response_ms: 3000,
      assertions: [
        { source: "json_body", property: "$.status", comparison: "equals", target: "ok" },
        { source: "headers", property: "content-type", comparison: "contains", target: "json" },
        { source: "text_body", property: null, comparison: "not_empty", target: null },
      ],
    });
  });

  it("PATCHes only the fields sent, judges rules on the result, and refuses type and read-only fields", async () => {
    const m = (await s.call("POST", "/api/v1/monitors", http({ tags: ["a"] }))).body.data;
    const res = await s.call("PATCH", `/api/v1/monitors/${m.id}`, {
      interval_sec: 120,
      headers: { "X-New": "1" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      interval_sec: 120,
      headers: { "x-new": "1" },
      tags: ["a"],
      name: m.name,
    });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(m.updated_at));

    const typeChange = await s.call("PATCH", `/api/v1/monitors/${m.id}`, { type: "tcp" });
    expect(typeChange.status).toBe(422);
    expect(typeChange.body.error.details).toEqual([
      { field: "type", message: expect.stringMatching(/cannot be changed/) },
    ]);
    const readOnly = await s.call("PATCH", `/api/v1/monitors/${m.id}`, { status: "paused" });
    expect(readOnly.body.error.details).toEqual([{ field: "status", message: "is read-only" }]);
    const rule = await s.call("PATCH", `/api/v1/monitors/${m.id}`, { timeout_sec: 50, interval_sec: 40 });
    expect(rule.status).toBe(422);
    expect(rule.body.error.details[0].field).toBe("timeout_sec");
    expect((await s.call("GET", `/api/v1/monitors/${m.id}`)).body.data.interval_sec).toBe(120);
  });

  it("pauses and resumes, and repeating either is a no-op that returns the monitor", async () => {
    const m = (await s.call("POST", "/api/v1/monitors", http())).body.data;
    const paused = await s.call("POST", `/api/v1/monitors/${m.id}/pause`);
    expect(paused.body.data.status).toBe("paused");
    const again = await s.call("POST", `/api/v1/monitors/${m.id}/pause`);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(paused.body.data);
    const resumed = await s.call("POST", `/api/v1/monitors/${m.id}/resume`);
    expect(resumed.body.data.status).toBe("active");
    expect((await s.call("POST", `/api/v1/monitors/${m.id}/resume`)).body.data.status).toBe("active");
    const patched = await s.call("PATCH", `/api/v1/monitors/${m.id}`, { name: "renamed" });
    expect(patched.body.data.status).toBe("active");
  });

  it("DELETE returns the deleted monitor, then the id is a 404 everywhere", async () => {
    const m = (await s.call("POST", "/api/v1/monitors", http())).body.data;
    const del = await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data.id).toBe(m.id);
    for (const [method, path] of [
      ["GET", ""],
      ["DELETE", ""],
      ["PATCH", ""],
      ["POST", "/pause"],
      ["GET", "/stats"],
      ["GET", "/heartbeats"],
    ] as const) {
      const res = await s.call(
        method,
        `/api/v1/monitors/${m.id}${path}`,
        method === "PATCH" ? { name: "x" } : undefined,
      );
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
  });

  it("answers heartbeats and stats of a new monitor with no data, in the documented shape", async () => {
    const m = (await s.call("POST", "/api/v1/monitors", http())).body.data;
    const hb = await s.call("GET", `/api/v1/monitors/${m.id}/heartbeats`);
    expect(hb.body).toEqual({ ok: true, data: [] });
    const stats = await s.call("GET", `/api/v1/monitors/${m.id}/stats?days=7`);
    expect(stats.body.data).toMatchObject({
      monitor_id: m.id,
      checks: 0,
      uptime_pct: null,
      avg_response_ms: null,
      p95_response_ms: null,
      incidents: 0,
      downtime_sec: 0,
    });
    expect(stats.body.data.daily).toHaveLength(7);
    expect(stats.body.data.daily[6].date).toBe(new Date().toISOString().slice(0, 10));
    expect((await s.call("GET", `/api/v1/monitors/${m.id}/stats`)).body.data.daily).toHaveLength(30);
    for (const q of ["heartbeats?hours=0", "heartbeats?hours=721", "stats?days=91", "stats?days=abc"]) {
      const res = await s.call("GET", `/api/v1/monitors/${m.id}/${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.error.details[0].field).toMatch(/hours|days/);
    }
  });
});

describe("monitor lists", () => {
  const s = useServer();

  it("pages in creation order with a stable cursor, and filters by tag and status", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await s.call("POST", "/api/v1/monitors", http({ name: `m${i}`, tags: i % 2 ? ["odd"] : ["even"] }));
      ids.push(res.body.data.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await s.call("GET", `/api/v1/monitors?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((m: { id: string }) => m.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);

    await s.call("POST", `/api/v1/monitors/${ids[1]}/pause`);
    const odd = await s.call("GET", "/api/v1/monitors?tag=ODD");
    expect(odd.body.data.map((m: { id: string }) => m.id)).toEqual([ids[1], ids[3], ids[5]]);
    const paused = await s.call("GET", "/api/v1/monitors?status=paused");
    expect(paused.body.data.map((m: { id: string }) => m.id)).toEqual([ids[1]]);

    for (const q of ["limit=0", "limit=201", "cursor=nonsense", "status=up"]) {
      const res = await s.call("GET", `/api/v1/monitors?${q}`);
      expect(res.status, q).toBe(422);
    }
  });
});
