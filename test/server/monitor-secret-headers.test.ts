import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

/** Quotes, a backslash, spaces, `&`, `%`, `+` and non-ASCII: no spelling of it may show. */
const TOKEN = 'tok "en" \\ & 50%+ wörd';
const SHORT = "k1";
const FINGERPRINT = /^hmac-sha256:[0-9a-f]{64}$/;

/** Secret headers (credentials by name) are write-only: every monitor read shows a fingerprint, never the value. */
describe("monitor reads show fingerprints of secret headers", () => {
  let s: TestServer;
  let target: Server;
  let url: string;
  /** The request headers the target last received. */
  let received: IncomingHttpHeaders = {};

  beforeAll(async () => {
    s = await startServer({ minIntervalSec: 1 });
    target = createServer((req, res) => {
      received = req.headers;
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await s.close();
    await new Promise((resolve) => target.close(resolve));
  });

  const http = (token: string) => ({
    name: "api",
    type: "http",
    url: `${url}/`,
    interval_sec: 60,
    headers: { Authorization: `Bearer ${token}`, "X-Api-Key": SHORT, Accept: "application/json" },
  });
  const multistep = (token: string) => ({
    name: "journey",
    type: "multistep",
    interval_sec: 60,
    steps: [
      {
        name: "one",
        url: `${url}/`,
        headers: { Cookie: `session=${token}`, "X-Auth-Token": SHORT, Accept: "text/plain" },
      },
    ],
  });
  const spellings = (secret: string) => [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    'tok \\"en',
    SHORT,
  ];

  for (const [type, body, headersOf] of [
    ["http", http, (m: { headers: Record<string, string> }) => m.headers],
    ["multistep", multistep, (m: { steps: { headers: Record<string, string> }[] }) => m.steps[0]!.headers],
  ] as const) {
    it(`${type}: the create answer, a replayed create, GET, the list, PATCH, pause and DELETE hold no secret header's value`, async () => {
      const key = `secret-headers-${type}`;
      const created = await s.call("POST", "/api/v1/monitors", body(TOKEN), { headers: { "idempotency-key": key } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.data.id as string;
      const shown = headersOf(created.body.data);
      const secretNames = Object.keys(shown).filter((n) => n !== "accept");
      expect(secretNames).toHaveLength(2);
      for (const name of secretNames) expect(shown[name]).toMatch(FINGERPRINT);
      // A header that is no credential reads as written.
      expect(shown.accept).toMatch(/^(application|text)\//);
      const answers = [
        created,
        await s.call("POST", "/api/v1/monitors", body(TOKEN), { headers: { "idempotency-key": key } }),
        await s.call("GET", `/api/v1/monitors/${id}`),
        await s.call("GET", "/api/v1/monitors"),
        await s.call("PATCH", `/api/v1/monitors/${id}`, { name: "renamed" }),
        await s.call("POST", `/api/v1/monitors/${id}/pause`),
        await s.call("DELETE", `/api/v1/monitors/${id}`),
      ];
      for (const answer of answers) {
        const text = JSON.stringify(answer.body);
        for (const spelled of spellings(TOKEN)) expect(text, spelled).not.toContain(spelled);
        expect(text).toContain(shown[secretNames[0]!]);
      }
    });

    it(`${type}: the fingerprint changes with the value, a PATCH that sends it back keeps the value, and the check sends the value`, async () => {
      const [first, second] = [
        await s.call("POST", "/api/v1/monitors", body(TOKEN)),
        await s.call("POST", "/api/v1/monitors", body(TOKEN)),
      ];
      expect([first.status, second.status], JSON.stringify(second.body)).toEqual([201, 201]);
      const [a, b] = [first.body.data, second.body.data];
      const name = Object.keys(headersOf(a)).find((n) => n !== "accept" && !headersOf(a)[n]!.includes(SHORT))!;
      expect(headersOf(a)[name]).not.toBe(headersOf(b)[name]);
      const { type: _type, ...patch } = body("another value");
      const patched = await s.call("PATCH", `/api/v1/monitors/${a.id}`, patch);
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const changed = patched.body.data;
      expect(headersOf(changed)[name]).toMatch(FINGERPRINT);
      expect(headersOf(changed)[name]).not.toBe(headersOf(a)[name]);
      // Read-modify-write: the monitor read back, written back whole, keeps every value.
      const read = (await s.call("GET", `/api/v1/monitors/${a.id}`)).body.data;
      const echo = type === "http" ? { headers: read.headers } : { steps: read.steps };
      const echoed = await s.call("PATCH", `/api/v1/monitors/${a.id}`, echo);
      expect(echoed.status, JSON.stringify(echoed.body)).toBe(200);
      expect(headersOf(echoed.body.data)).toEqual(headersOf(changed));
      // The check still sends the values, not their fingerprints.
      received = {};
      const run = await s.call("POST", `/api/v1/monitors/${a.id}/test`);
      expect(run.body.data.status, JSON.stringify(run.body)).toBe("up");
      if (type === "http") {
        expect(received.authorization).toBe("Bearer another value");
        expect(received["x-api-key"]).toBe(SHORT);
      } else {
        expect(received.cookie).toBe("session=another value");
        expect(received["x-auth-token"]).toBe(SHORT);
      }
      // A fingerprint of another monitor's value is not this monitor's: it is written as text.
      const foreign = { ...headersOf(b) };
      const stranger = await s.call(
        "PATCH",
        `/api/v1/monitors/${a.id}`,
        type === "http" ? { headers: foreign } : { steps: [{ name: "one", url: `${url}/`, headers: foreign }] },
      );
      expect(stranger.status, JSON.stringify(stranger.body)).toBe(200);
      received = {};
      await s.call("POST", `/api/v1/monitors/${a.id}/test`);
      expect(received[name]).toBe(foreign[name]);
      for (const id of [a.id, b.id]) await s.call("DELETE", `/api/v1/monitors/${id}`);
    });
  }
});
