import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { startServer, type TestServer } from "../support/server";

/**
 * A multi-step monitor's step URLs obey the outbound policy like every monitor's `url`: refused at
 * `pulumi preview`, create, PATCH and dry run with the field `steps[i].url`, instead of a monitor
 * that is down on every run. A step whose host is a `{{variable}}` is judged when it runs.
 */
describe("multi-step step URLs and the outbound policy", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };
  beforeAll(async () => {
    s = await startServer({ allowPrivateTargets: false });
    connection = { baseUrl: s.url, apiKey: s.key };
  });
  afterAll(async () => {
    await s?.close();
  });

  const steps = (second: string) => [
    { name: "home", url: "https://example.com/" },
    { name: "inside", url: second },
  ];
  const variables = { order_id: "42", tenant: "shop", token: "t0k3n" };
  const body = (second: string) => ({
    name: "journey",
    type: "multistep",
    interval_sec: 60,
    variables,
    steps: steps(second),
  });
  const preview = async (second: string) =>
    (
      await runtime.check(
        "Monitor",
        {},
        { name: "journey", type: "multistep", intervalSec: 60, variables, steps: steps(second), connection },
      )
    ).failures;

  it.each([
    [
      "a loopback address",
      "http://127.0.0.1:9/",
      /^must not point at a private, loopback or metadata host: 127\.0\.0\.1 is not a global unicast address \(loopback\); start the server with --allow-private-targets to reach it$/,
    ],
    [
      "the metadata address",
      "http://169.254.169.254/latest/meta-data/iam",
      /^must not point at a private, loopback or metadata host: 169\.254\.169\.254 is a linkLocal address, which is never reached$/,
    ],
    [
      "a local name with a variable in its path",
      "http://localhost:8080/orders/{{order_id}}",
      /^must not point at a private, loopback or metadata host: localhost is a local name/,
    ],
  ])("%s is refused at create, PATCH, dry run and preview, naming steps[1].url", async (_what, url, message) => {
    const created = await s.call("POST", "/api/v1/monitors", body(url));
    expect(created.status, JSON.stringify(created.body)).toBe(422);
    expect(created.body.error.details).toEqual([{ field: "steps[1].url", message: expect.stringMatching(message) }]);
    const server = created.body.error.details[0].message as string;
    const dry = await s.call("POST", "/api/v1/monitors/test", body(url));
    expect(dry.status).toBe(422);
    expect(dry.body.error.details).toEqual([{ field: "steps[1].url", message: server }]);
    const ok = await s.call("POST", "/api/v1/monitors", body("https://example.com/account"));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const patched = await s.call("PATCH", `/api/v1/monitors/${ok.body.data.id}`, { steps: steps(url) });
    expect(patched.status).toBe(422);
    expect(patched.body.error.details).toEqual([{ field: "steps[1].url", message: server }]);
    await s.call("DELETE", `/api/v1/monitors/${ok.body.data.id}`);
    expect(await preview(url)).toEqual([{ property: "steps[1].url", reason: `steps[1].url: ${server}` }]);
  });

  it("a step whose host is a variable, or a public host, is accepted (the run judges the variable's host)", async () => {
    for (const url of [
      "https://{{tenant}}.example.com/api",
      "https://example.com/orders/{{order_id}}?token={{token}}",
    ]) {
      expect(await preview(url)).toEqual([]);
      const created = await s.call("POST", "/api/v1/monitors", body(url));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      await s.call("DELETE", `/api/v1/monitors/${created.body.data.id}`);
    }
  });
});
