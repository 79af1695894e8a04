import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { httpMonitorId } from "../support/server";
import { useServer } from "../support/use-server";

/** Sends raw bytes and returns what the server wrote back before closing or within 2 s. */
function raw(url: string, bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let data = "";
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      data += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const [head = "", body = ""] = data.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head.toLowerCase(), body });
    });
  });
}

function expectEnvelope(body: string, code: string): void {
  const parsed = JSON.parse(body);
  expect(parsed.ok).toBe(false);
  expect(parsed.error.code).toBe(code);
  expect(parsed.error.request_id).toMatch(/^req_[0-9a-f]{16}$/);
}

describe("every refusal in the error envelope", () => {
  const s = useServer();

  it("answers an id of the wrong shape or length with 404 after authentication, never echoing it", async () => {
    for (const id of ["x".repeat(150), `mon_${"a".repeat(400)}`, "chn_0000000000000000000000000000", "mon_00"]) {
      const res = await s.call("GET", `/api/v1/monitors/${id}`);
      expect(res.status, id.slice(0, 20)).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect(res.body.error.request_id).toBe(res.headers["x-request-id"]);
      expect(JSON.stringify(res.body)).not.toContain(id);
    }
    expect((await s.call("GET", `/api/v1/monitors/${"x".repeat(150)}`, undefined, { key: null })).status).toBe(401);
    const huge = await s.call("GET", `/api/v1/channels/${"x".repeat(2000)}`);
    expect(huge.status).toBe(404);
    expect(huge.body.error.code).toBe("not_found");
  });

  it("refuses query integers that are not plain decimal digits with a 422 naming the parameter", async () => {
    const id = await httpMonitorId(s, "q", "https://example.com");
    for (const q of ["hours=0x10", "hours=1e2", "hours=%2024", "hours=24.0", "hours=-1", "hours="]) {
      const res = await s.call("GET", `/api/v1/monitors/${id}/heartbeats?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.error.details[0].field).toBe("hours");
    }
    expect((await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=24`)).status).toBe(200);
    expect((await s.call("GET", "/api/v1/monitors?limit=1e1")).status).toBe(422);
    expect((await s.call("GET", `/api/v1/monitors/${id}/stats?days=07`)).status).toBe(200);
  });

  it("refuses a control character inside a header value with a 400 that says so", async () => {
    const before = (await s.call("GET", "/api/v1/monitors?limit=200")).body.data.length;
    for (const c of ["\x00", "\x01", "\x7f"]) {
      const res = await raw(
        s.url,
        `POST /api/v1/monitors HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.key}\r\nIdempotency-Key: a${c}b\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      expect(res.status).toBe(400);
      expectEnvelope(res.body, "bad_request");
      expect(JSON.parse(res.body).error.message).toMatch(/control character/);
    }
    expect((await s.call("GET", "/api/v1/monitors?limit=200")).body.data.length).toBe(before);
  });

  it("answers headers over 16 KiB with 431, a request line that long with 414, and broken framing with 400", async () => {
    const big = await raw(s.url, `GET /api/v1/monitors HTTP/1.1\r\nHost: x\r\nX-Filler: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(big.headers).toMatch(/x-request-id: req_/);
    expectEnvelope(big.body, "header_fields_too_large");
    const long = await raw(s.url, `GET /api/v1/monitors/${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(long.status).toBe(414);
    expectEnvelope(long.body, "uri_too_long");
    const broken = await raw(s.url, "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
    expect(broken.status).toBe(400);
    expectEnvelope(broken.body, "bad_request");
  });

  it("answers a method the path does not serve with 405 and Allow, even TRACE and QUERY", async () => {
    for (const method of ["TRACE", "QUERY", "OPTIONS", "PUT"]) {
      const res = await raw(
        s.url,
        `${method} /api/v1/monitors HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.key}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status, method).toBe(405);
      expect(res.headers).toMatch(/allow: get, head, post/);
      expectEnvelope(res.body, "method_not_allowed");
    }
  });

  it("documents only real operations, each with its error answers in the envelope", async () => {
    const doc = (await s.call("GET", "/api/v1/openapi.json", undefined, { key: null })).body;
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, { responses: Record<string, unknown>; security?: unknown[] }>).map(
        ([method, op]) => ({ path, method, op }),
      ),
    );
    // 21 of the documented API and its CRUD extensions; 8 of maintenance windows and push
    // monitors; 2 dry runs; a channel's deliveries; the locations and the agent API's 2; 4 batched
    // writes; a browser run's screenshot; a status page's incidents (list, open, get, patch, post an
    // update) and its components (get, patch, put).
    expect(operations).toHaveLength(49);
    for (const { path, method, op } of operations) {
      const statuses = Object.keys(op.responses);
      expect(
        statuses.filter((c) => c.startsWith("2")),
        `${method} ${path}`,
      ).toHaveLength(1);
      for (const code of ["400", "405", "429", "500"]) expect(statuses, `${method} ${path}`).toContain(code);
      for (const code of statuses.filter((c) => Number(c) >= 400)) {
        expect(op.responses[code]).toMatchObject({
          content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
        });
      }
    }
    const pub = doc.paths["/api/status/{file}"].get;
    expect(pub.security).toEqual([]);
    // No key, ever: its 401 is a private page's (its password or address range), not a key's.
    expect(Object.keys(pub.responses)).toContain("401");
    const heartbeats = doc.paths["/api/v1/monitors/{id}/heartbeats"].get.parameters;
    expect(heartbeats.find((p: { name: string }) => p.name === "hours").schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 720,
    });
  });
});
