import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MONITOR_TYPES } from "../../api/index";
import { startServer, type TestServer } from "../support/server";

/**
 * The document's monitor union (one variant per `type`) is written for the document; the server
 * validates with its flat schema and its rules across fields, whose messages are the API's. This
 * proves the two agree: a body the document accepts is created, and a body it refuses is a 422.
 */

/** Values of each field, valid for some types and not for others. */
const POOLS = {
  url: [
    "https://example.com/",
    "http://example.com/x?q=1",
    "http://127.0.0.1:8080/",
    "tcp://example.com:5432",
    "dns://example.com",
    null,
    "ftp://example.com",
    "not a url",
    "grpc://example.com:50051",
    "grpcs://example.com:443/",
    "grpc://example.com",
    "ws://example.com/feed",
    "wss://example.com",
    "udp://example.com:53",
    "ping://example.com",
    "ping://192.0.2.1",
    "ping://example.com:7",
    "smtp://mx.example.com",
    "smtps://mx.example.com:465",
    "smtp://mx.example.com/x",
    "domain://example.com",
    "domain://192.0.2.1",
  ],
  keyword: ["up", null, ""],
  keyword_case_sensitive: [true],
  method: ["GET", "HEAD", "POST", "DELETE"],
  headers: [{}, { "x-a": "1" }],
  body: ["{}", null],
  expected_status_codes: [[200, "3xx"]],
  assertions: [
    [],
    [{ source: "status_code", comparison: "equals", target: "200" }],
    [{ source: "text_body", comparison: "contains", target: "SERVING" }],
    [{ source: "json_body", property: "$.packet_loss_pct", comparison: "less_than", target: "50" }],
  ],
  degraded_response_ms: [null, 500],
  ssl_expiry_days: [null, 14],
  grace_sec: [0, 120],
  verify_tls: [false],
  dns_record_type: ["A", "AAAA", "MX", "CNAME"],
  dns_expected_values: [[], ["1.2.3.4"], ["2001:db8::1"], ["10 mx.example.com"], ["example.com"]],
  dns_resolver: [null, "1.1.1.1", "1.1.1.1:53", "[2001:db8::1]:53", "2001:db8::1", "resolver"],
  confirmations: [2],
  // Below the server's floor (a rule the document states per server) or not.
  remind_every_sec: [null, 3600, 1],
  // An escalation step naming a channel must name one that exists: a rule no schema states.
  escalation: [[], [{ after: -1, channels: ["chn_x"] }]],
  // Steps without {{variables}}: that each is defined before use is a rule no schema states.
  steps: [
    [],
    [
      {
        name: "a",
        url: "https://example.com/login",
        method: "POST",
        body: "{}",
        extract: [{ name: "t", source: "json_body", property: "$.t" }],
      },
    ],
    [
      {
        name: "a",
        url: "http://127.0.0.1:8080/x",
        cleanup: true,
        assertions: [{ source: "status_code", comparison: "equals", target: "200" }],
      },
    ],
    [{ name: "a", url: "ftp://example.com/" }],
    [{ name: "a", url: "https://example.com/", body: "{}" }],
    [{ name: "a", url: "https://example.com/", extract: [{ name: "t", source: "headers" }] }],
  ],
  variables: [{}, { v: "1" }],
  grpc_service: [null, "shop.Cart", "not a service!"],
  ping_count: [null, 3, 0],
  smtp_starttls: [null, true, false],
  domain_expiry_days: [null, 30, 400],
  retry: [null, { strategy: "linear", delay: 100 }, { strategy: "exponential", retries: 9 }],
} as const;

/** A body of one type with up to four other fields: as many valid bodies as refused ones. */
const body = fc
  .tuple(
    // Every monitor type but browser.
    fc.constantFrom(...MONITOR_TYPES.filter((type) => type !== "browser")),
    fc.subarray(Object.keys(POOLS) as (keyof typeof POOLS)[], { maxLength: 4 }),
  )
  .chain(([type, keys]) =>
    fc.record({
      name: fc.constant("m"),
      type: fc.constant(type),
      // Far above every timeout: `timeout_sec < interval_sec` is a rule no schema states.
      interval_sec: fc.constant(3600),
      ...Object.fromEntries(keys.map((k) => [k, fc.constantFrom(...POOLS[k])])),
    }),
  );

describe("the document's monitor union and the server's validation", () => {
  let s: TestServer;
  let documented: (body: unknown) => boolean;
  beforeAll(async () => {
    // More bodies than the API's 600 requests a minute.
    s = await startServer({ rateLimit: 10_000 });
    const doc = (await s.call("GET", "/api/v1/openapi.json", undefined, { key: null })).body;
    const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll("#/components/schemas/", "#/$defs/"));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    documented = ajv.compile({ $defs: defs, $ref: "#/$defs/CreateMonitor" });
  });
  afterAll(() => s.close());

  it("accept and refuse the same create bodies", async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await s.call("POST", "/api/v1/monitors", b);
        const accepted = documented(b);
        expect([res.status, res.body.error?.details], JSON.stringify(b)).toEqual(
          accepted ? [201, undefined] : [422, expect.any(Array)],
        );
        if (res.status === 201) created += 1;
      }),
      { numRuns: 800, seed: 22 },
    );
    // Both outcomes occur: the property is not passing vacuously.
    expect(created).toBeGreaterThan(20);
    expect(created).toBeLessThan(780);
  });
});
