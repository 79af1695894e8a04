import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor } from "../../provider/client/client";
import * as runtime from "../../provider/runtime";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import { newKey, startServer, type TestServer } from "../support/server";
import { freeFixedPort } from "../../scripts/free-port";

const identity = { project: "shop", stack: "prod", kind: "Monitor", name: "checkout" };
const monitor = (connection: { baseUrl: string; apiKey: string }, over: Record<string, unknown> = {}) => ({
  name: "Checkout",
  type: "http",
  url: "https://shop.example.com/checkout",
  intervalSec: 60,
  connection,
  __identity: identity,
  ...over,
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable("the call succeeded"),
    (e: Error) => e.message,
  );

describe("errors a user sees during pulumi up", () => {
  let s: TestServer;
  let proxy: FaultProxy;
  beforeAll(async () => {
    s = await startServer({ monitorLimit: 10 });
    proxy = await startFaultProxy(s.url);
  });
  afterAll(async () => {
    await proxy.close();
    await s.close();
  });

  it("server unreachable: names the resource and the URL, says what to check", async () => {
    const connection = { baseUrl: `http://127.0.0.1:${await freeFixedPort()}`, apiKey: s.key };
    clientFor(connection, { maxRetries: 1, baseDelayMs: 1 });
    const message = await failure(runtime.create("Monitor", monitor(connection)));
    expect(message).toContain('Monitor "checkout" could not be created: uptime API network_error');
    expect(message).toContain(`The service at ${connection.baseUrl} could not be reached after 2 attempts`);
    expect(message).toContain("uptime:baseUrl");
  });

  it("a refused connection fails within about a second, after 3 attempts, with the same advice", async () => {
    const connection = { baseUrl: `http://127.0.0.1:${await freeFixedPort()}`, apiKey: s.key };
    const started = Date.now();
    const message = await failure(runtime.create("Monitor", monitor(connection)));
    const ms = Date.now() - started;
    expect(message).toContain(`The service at ${connection.baseUrl} could not be reached after 3 attempts`);
    expect(message).toContain("ECONNREFUSED");
    // The default client: two short retries (250 ms, then 500 ms), not the 10 of a busy service.
    expect(ms).toBeGreaterThanOrEqual(700);
    expect(ms).toBeLessThan(5_000);
  });

  it("wrong and revoked keys: the code, the request id and how to set a key", async () => {
    const revoked = await s.app.store.keys.create("dev", "old ci key");
    await s.app.store.keys.revoke(revoked.info.id);
    for (const apiKey of [newKey(), revoked.key]) {
      const message = await failure(runtime.create("Monitor", monitor({ baseUrl: s.url, apiKey })));
      expect(message).toMatch(
        /Monitor "checkout" could not be created: uptime API unauthorized \(HTTP 401, request req_[0-9a-f]+\)/,
      );
      expect(message).toContain("wrong or has been revoked");
      expect(message).toContain("pulumi config set --secret uptime:apiKey");
      expect(message).not.toContain(apiKey);
    }
  });

  it("a field the service refuses at create (422) is given once, in input property names, and no rule is said to be checked at preview", async () => {
    const connection = { baseUrl: s.url, apiKey: s.key };
    const message = await failure(runtime.create("Monitor", monitor(connection, { locations: ["local", "nowhere"] })));
    expect(message).toMatch(
      /Monitor "checkout" could not be created: uptime API validation_failed \(HTTP 422, request req_[0-9a-f]+\): locations\[1\]: /,
    );
    const rule = /locations\[1\]: [^.;]+/.exec(message)?.[0] as string;
    expect(message.split(rule).length - 1).toBe(1);
    expect(message).not.toContain("Request is invalid");
    expect(message).not.toContain("pulumi preview");
    expect(message).toContain("Fix the input named above, then run `pulumi up` again.");
  });

  it("over the monitor allowance: the code, the request id and what to do", async () => {
    for (let i = 0; i < 10; i++) {
      await s.call("POST", "/api/v1/monitors", {
        name: `m${i}`,
        type: "http",
        url: "https://example.com",
        interval_sec: 60,
      });
    }
    const message = await failure(runtime.create("Monitor", monitor({ baseUrl: s.url, apiKey: s.key })));
    expect(message).toMatch(
      /uptime API monitor_limit_reached \(HTTP 403, request req_[0-9a-f]+\): This account may have at most 10 monitors/,
    );
    expect(message).toContain("allowance");
  });

  it("a field the service refuses is named as the input property", async () => {
    const connection = { baseUrl: s.url, apiKey: s.key };
    const page = { slug: "taken-slug", title: "A", connection, __identity: { ...identity, kind: "StatusPage" } };
    await s.call("POST", "/api/v1/status-pages", { slug: "taken-slug", title: "First" });
    const message = await failure(runtime.create("StatusPage", page));
    expect(message).toMatch(
      /StatusPage "checkout" could not be created: uptime API conflict \(HTTP 409, request req_[0-9a-f]+\)/,
    );
    expect(message).toContain("Field slug: is already taken");
  });

  it("5xx beyond the retries, and a rate limit still spent at the deadline: the attempts, the request id and what to do", async () => {
    const connection = { baseUrl: proxy.url, apiKey: s.key };
    clientFor(connection, { maxRetries: 2, baseDelayMs: 1, rateLimitTimeoutMs: 300, notify: () => undefined });
    // The create goes in a batch (the server has them): the fault is the batch's.
    const post = (m: string, p: string) => m === "POST" && p === "/api/v1/monitors/batch";
    proxy.faults.push({ match: post, status: 503, times: 3 });
    const failed = await failure(runtime.create("Monitor", monitor(connection)));
    expect(failed).toMatch(/uptime API internal_error \(HTTP 503, request req_proxy\d+\)/);
    expect(failed).toContain("The service failed after 3 attempts. Run `pulumi up` again");

    proxy.faults.push({ match: post, status: 429, times: 1, headers: { "retry-after": "2" } });
    const limited = await failure(runtime.create("Monitor", monitor(connection)));
    expect(limited).toMatch(
      /uptime API rate_limited \(HTTP 429, request req_proxy\d+\): The API key's rate limit was still spent at this request's deadline/,
    );
    expect(limited).toContain("Raise the resource's timeout (`customTimeouts`");
    expect(limited).not.toContain(s.key);
  });
});
