import { describe, expect, it } from "vitest";
import { type TestServer } from "../support/server";
import { useServer } from "../support/use-server";

const monitor = { name: "m", type: "http", url: "https://example.com", interval_sec: 60 };

describe("error envelope", () => {
  const s = useServer();

  const count = async () => (await s.call("GET", "/api/v1/monitors?limit=200")).body.data.length;

  it("answers each malformed request with its code, the request id, and writes nothing", async () => {
    const before = await count();
    const cases: [string, string, Parameters<TestServer["call"]>[3], number, string][] = [
      [
        "POST",
        "/api/v1/monitors",
        { raw: '{"name":', headers: { "content-type": "application/json" } },
        400,
        "malformed_json",
      ],
      [
        "POST",
        "/api/v1/monitors",
        { raw: JSON.stringify(monitor), headers: { "content-type": "text/plain" } },
        415,
        "unsupported_media_type",
      ],
      ["POST", "/api/v1/monitors", { raw: JSON.stringify(monitor) }, 415, "unsupported_media_type"],
      [
        "POST",
        "/api/v1/monitors",
        {
          raw: JSON.stringify({ ...monitor, name: "x".repeat(70 * 1024) }),
          headers: { "content-type": "application/json" },
        },
        413,
        "payload_too_large",
      ],
      [
        "POST",
        "/api/v1/monitors",
        { raw: "[1,2]", headers: { "content-type": "application/json" } },
        422,
        "validation_failed",
      ],
      ["PUT", "/api/v1/monitors", {}, 405, "method_not_allowed"],
      ["GET", "/api/v1/no-such-thing", {}, 404, "not_found"],
      ["GET", "/api/v1/monitors/mon_unknown", {}, 404, "not_found"],
      ["GET", "/no/such/route", { key: null }, 404, "not_found"],
    ];
    for (const [method, path, opts, status, code] of cases) {
      const res = await s.call(method, path, undefined, opts);
      expect(res.status, `${method} ${path} ${code}`).toBe(status);
      expect(res.body.ok).toBe(false);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.message).toEqual(expect.any(String));
      expect(res.headers["x-request-id"]).toMatch(/^req_/);
      expect(res.body.error.request_id).toBe(res.headers["x-request-id"]);
    }
    expect(await count()).toBe(before);
  });

  it("names the allowed methods on a 405", async () => {
    const res = await s.call("DELETE", "/api/v1/monitors");
    expect(res.status).toBe(405);
    expect(String(res.headers.allow)).toMatch(/GET/);
    expect(String(res.headers.allow)).toMatch(/POST/);
  });

  it("sends X-Request-Id on successes too", async () => {
    const res = await s.call("GET", "/api/v1/monitors");
    expect(res.status).toBe(200);
    expect(res.headers["x-request-id"]).toMatch(/^req_/);
  });
});
