import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as runtime from "../../provider/runtime";
import { startFaultProxy } from "../support/fault-proxy";
import { startServer, type TestServer } from "../support/server";
import { monitorInputs } from "../support/provider-inputs";

type Props = Record<string, unknown>;

/**
 * What a changed connection does to a resource (a rotated key, another spelling of the endpoint,
 * another service), what a replacement created before the old object is deleted does, and how
 * `customTimeouts` end a resource's waits.
 */
describe("connections, replacements and time limits of resources", () => {
  let s: TestServer;
  const monitor = monitorInputs;

  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it("a rotated key is an in-place update that rewrites the key state records, with no write to the object", async () => {
    const keys = s.app.store.keys;
    const first = await keys.create("dev", "first");
    const created = await runtime.create("Monitor", monitor({ baseUrl: s.url, apiKey: first.key }));
    const rotated = (await keys.create("dev", "rotated")).key;
    const news = monitor({ baseUrl: s.url, apiKey: rotated });
    const diff = await runtime.diff("Monitor", created.id, created.outs as Props, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const before = (await s.call("GET", `/api/v1/monitors/${created.id}`)).body.data.updated_at;
    const updated = await runtime.update("Monitor", created.id, created.outs as Props, news);
    expect(updated.outs).toMatchObject({ connection: { apiKey: rotated } });
    expect((await s.call("GET", `/api/v1/monitors/${created.id}`)).body.data.updated_at).toBe(before);
    expect(await runtime.diff("Monitor", created.id, updated.outs as Props, news)).toMatchObject({ changes: false });
    // With the old key revoked, refresh and delete work from what the update recorded.
    await keys.revoke(first.info.id);
    const err = await runtime.read("Monitor", created.id, created.outs as Props).catch((e: Error) => e);
    expect(String(err)).toMatch(/refused the API key from the resource's `connection.apiKey`, as recorded in state/);
    expect(String(err)).not.toContain(first.key);
    expect((await runtime.read("Monitor", created.id, updated.outs as Props)).id).toBe(created.id);
    await runtime.remove("Monitor", created.id, updated.outs as Props);
    expect((await s.call("GET", `/api/v1/monitors/${created.id}`)).body.error.code).toBe("not_found");
  });

  it("another spelling of the same endpoint updates it in place; an endpoint without the object replaces, saying why", async () => {
    const created = await runtime.create("Monitor", monitor({ baseUrl: s.url, apiKey: s.key }));
    const port = new URL(s.url).port;
    for (const spelling of [`http://LOCALHOST:${port}/`, `http://localhost:${port}`, `${s.url}/`]) {
      const diff = await runtime.diff(
        "Monitor",
        created.id,
        created.outs as Props,
        monitor({ baseUrl: spelling, apiKey: s.key }),
      );
      expect(diff, spelling).toMatchObject({ replaces: [] });
    }
    const news = monitor({ baseUrl: `http://localhost:${port}`, apiKey: s.key });
    const updated = await runtime.update("Monitor", created.id, created.outs as Props, news);
    expect(updated.outs).toMatchObject({ endpoint: `http://localhost:${port}` });
    expect(await runtime.diff("Monitor", created.id, updated.outs as Props, news)).toMatchObject({ changes: false });

    const other = await startServer();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const moved = monitor({ baseUrl: other.url, apiKey: other.key });
      expect(await runtime.diff("Monitor", created.id, updated.outs as Props, moved)).toMatchObject({
        changes: true,
        replaces: ["connection"],
      });
      expect(warn.mock.calls.join("\n")).toContain(
        `not found at the new endpoint ${other.url} (it was created at http://localhost:${port})`,
      );
    } finally {
      warn.mockRestore();
      await other.close();
    }
    await runtime.remove("Monitor", created.id, updated.outs as Props);
  });

  it("a replacement created while the old object exists makes a fresh one; deleting the old one loses nothing", async () => {
    const identity = { project: "p", stack: "s", kind: "Monitor", name: "replaced" };
    const inputs = monitor({ baseUrl: s.url, apiKey: s.key }, { __identity: identity });
    await runtime.check("Monitor", {}, inputs);
    const old = await runtime.create("Monitor", inputs);
    // `pulumi up --replace` without deleteBeforeReplace: check with the old inputs, create, then delete the old one.
    await runtime.check("Monitor", inputs, inputs);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const replacement = await runtime.create("Monitor", inputs);
      expect(replacement.id).not.toBe(old.id);
      await runtime.remove("Monitor", old.id, old.outs as Props);
      expect((await s.call("GET", `/api/v1/monitors/${replacement.id}`)).body.data).toMatchObject({
        name: "api",
        interval_sec: 60,
      });
      expect((await s.call("GET", `/api/v1/monitors/${old.id}`)).body.error.code).toBe("not_found");
    } finally {
      warn.mockRestore();
    }
  });

  it("customTimeouts end a resource's retries and waits against a stalling service, with an error naming the limit", async () => {
    const proxy = await startFaultProxy(s.url);
    const timed = (timeouts: Props, over: Props = {}) =>
      monitor({ baseUrl: proxy.url, apiKey: s.key }, { __timeouts: timeouts, ...over });
    const quickly = async (run: () => Promise<unknown>) => {
      const started = Date.now();
      const err = await run().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(Date.now() - started).toBeLessThan(6_000);
      return String(err);
    };
    try {
      const created = await runtime.create("Monitor", timed({ create: "10s" }));
      // A PATCH that never answers.
      // (The server has batched writes: the PATCH goes in a batch, the POST below.)
      proxy.faults.push({ times: Infinity, delayMs: 120_000, match: (m, p) => m === "POST" && p.endsWith("/batch") });
      expect(
        await quickly(() =>
          runtime.update("Monitor", created.id, created.outs as Props, timed({ update: "1s" }, { intervalSec: 120 })),
        ),
      ).toMatch(
        /Monitor "api" could not be updated: uptime API timeout.*gave up after 1s \(customTimeouts\.update\) while waiting for the answer to PATCH \/api\/v1\/monitors\/mon_\w+ \(in a batch\)/,
      );
      // A service that answers 503 for ever: the retries end at the limit.
      proxy.faults.length = 0;
      proxy.faults.push({ times: Infinity, status: 503, match: (m, p) => m === "POST" && p.endsWith("/batch") });
      const outs = { ...(created.outs as Props), __timeouts: { delete: "2s" } };
      expect(await quickly(() => runtime.remove("Monitor", created.id, outs))).toMatch(
        /gave up after 2s \(customTimeouts\.delete\) while waiting for the answer to DELETE \/api\/v1\/monitors\/mon_\w+ \(in a batch\)/,
      );
      // One that refuses with 429 for ever: the wait for the key's rate limit ends there too.
      proxy.faults.length = 0;
      proxy.faults.push({ times: Infinity, status: 429, headers: { "retry-after": "30" }, match: (m) => m === "POST" });
      expect(await quickly(() => runtime.create("Monitor", timed({ create: "1.5s" }, { name: "other" })))).toMatch(
        /could not be created: uptime API timeout.*gave up after 1\.5s \(customTimeouts\.create\) while waiting for the answer to POST \/api\/v1\/monitors \(in a batch\)/,
      );
      // The key's budget now waits for the refused window: clean up on the server directly.
      await s.call("DELETE", `/api/v1/monitors/${created.id}`);
    } finally {
      await proxy.close();
    }
  });
});
