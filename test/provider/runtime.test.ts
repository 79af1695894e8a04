import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { UNKNOWN } from "../../provider/kinds/values";
import { startServer, type TestServer, httpMonitorId } from "../support/server";
import { monitorInputs } from "../support/provider-inputs";

type Props = Record<string, unknown>;

describe("provider methods against a real server", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };
  const monitor = (over: Props = {}): Props => monitorInputs(connection, over);
  const live = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body;

  beforeAll(async () => {
    s = await startServer();
    connection = { baseUrl: s.url, apiKey: s.key };
  });
  afterAll(() => s.close());

  it("check names the input property and the rule, and sends nothing", async () => {
    const before = (await s.call("GET", "/api/v1/monitors")).body.data.length;
    const cases: [Props, string, RegExp][] = [
      [monitor({ intervalSec: 10 }), "intervalSec", /intervalSec: must be between 30 and 86400/],
      [monitor({ timeoutSec: 90 }), "timeoutSec", /at most 60/],
      [monitor({ type: "keyword" }), "keyword", /required for keyword/],
      [monitor({ url: "ftp://x" }), "url", /http:\/\//],
      [monitor({ channelIds: [""] }), "channelIds[0]", /at least 1/],
      [monitor({ expectedStatusCodes: ["6xx"] }), "expectedStatusCodes[0]", /status code or a class/],
      [monitor({ connection: { baseUrl: s.url } }), "connection", /No API key/],
      [
        monitor({
          assertions: [
            { source: "status_code", comparison: "equals", target: "200" },
            { source: "json_body", property: "$.status", comparison: "equals", target: "ok" },
            { source: "text_body", comparison: "matches", target: "(unclosed" },
          ],
        }),
        "assertions[2].target",
        /assertions\[2\]\.target: must be a valid RE2 regular expression/,
      ],
      [
        monitor({ assertions: [{ source: "body", comparison: "equals", target: "x" }] }),
        "assertions[0].source",
        /must be one of/,
      ],
      [
        monitor({ assertions: [{ source: "status_code", comparison: "less_than", target: "fast" }] }),
        "assertions[0].target",
        /must be a number/,
      ],
      [monitor({ degradedResponseMs: 2000, maxResponseMs: 1000 }), "degradedResponseMs", /less than max_response_ms/],
      [
        monitor({
          type: "multistep",
          url: undefined,
          steps: [
            { name: "log in", url: "https://a.example/login" },
            { name: "read", url: "https://a.example/items/{{id}}" },
          ],
        }),
        "steps[1].url",
        /steps\[1\]\.url: step "read" uses \{\{id\}\}, which neither variables nor an earlier step's extract defines/,
      ],
      [
        monitor({
          type: "multistep",
          url: undefined,
          steps: [{ name: "a", url: "https://a.example/", extract: [{ name: "id", source: "json_body" }] }],
        }),
        "steps[0].extract[0].property",
        /required for json_body extractions/,
      ],
    ];
    const saved = process.env.UPTIME_API_KEY;
    delete process.env.UPTIME_API_KEY;
    try {
      for (const [inputs, property, reason] of cases) {
        const { failures } = await runtime.check("Monitor", {}, inputs);
        const failure = failures?.find((f) => f.property === property);
        expect(failure, `${property}: ${JSON.stringify(failures)}`).toBeDefined();
        expect(failure?.reason).toMatch(reason);
      }
    } finally {
      if (saved !== undefined) process.env.UPTIME_API_KEY = saved;
    }
    expect((await runtime.check("Monitor", {}, monitor({ channelIds: [UNKNOWN] }))).failures).toEqual([]);
    expect(
      (await runtime.check("Channel", {}, { name: "c", type: "webhook", config: { url: "nope" }, connection }))
        .failures,
    ).toEqual([{ property: "config.url", reason: expect.stringMatching(/config\.url: must be an http/) }]);
    expect((await s.call("GET", "/api/v1/monitors")).body.data.length).toBe(before);
  });

  it("creates, diffs clean against reordered sets and header case, updates in place, replaces on type", async () => {
    const inputs = monitor({
      headers: { "X-Api-Key": "k" },
      tags: ["b", "a"],
      channelIds: [],
      expectedStatusCodes: ["2xx", 200],
    });
    const created = await runtime.create("Monitor", inputs);
    expect(created.id).toMatch(/^mon_/);
    // Header names as written: the service lower-cases them, and a refresh records this output as the input.
    expect(created.outs).toMatchObject({
      intervalSec: 60,
      timeoutSec: 10,
      headers: { "X-Api-Key": "k" },
      tags: ["a", "b"],
      paused: false,
    });
    // A credential (by name) reads as its fingerprint.
    expect((await live(created.id)).data.headers).toEqual({
      "x-api-key": expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
    });
    const olds = created.outs as Props;

    const reordered = monitor({
      headers: { "x-api-key": "k" },
      tags: ["A", "b"],
      expectedStatusCodes: [200, "2xx", 200],
    });
    expect(await runtime.diff("Monitor", created.id, olds, reordered)).toMatchObject({ changes: false, replaces: [] });

    const edited = { ...reordered, intervalSec: 120, name: "api v2" };
    expect(await runtime.diff("Monitor", created.id, olds, edited)).toMatchObject({ changes: true, replaces: [] });
    const updated = await runtime.update("Monitor", created.id, olds, edited);
    expect(updated.outs).toMatchObject({ intervalSec: 120, name: "api v2" });
    expect((await live(created.id)).data).toMatchObject({ interval_sec: 120, name: "api v2", tags: ["a", "b"] });

    const retyped = await runtime.diff("Monitor", created.id, updated.outs as Props, {
      ...edited,
      type: "keyword",
      keyword: "ok",
    });
    expect(retyped).toMatchObject({ changes: true, replaces: ["type"] });
  });

  it("creates a multi-step monitor whose steps, written with defaults left out, diff clean; a changed step is an update", async () => {
    const steps = [
      {
        name: "log in",
        method: "POST",
        url: "https://a.example/login",
        body: '{"p":"{{password}}"}',
        headers: { "Content-Type": "application/json" },
        extract: [{ name: "token", source: "json_body", property: "$.token", secret: true }],
      },
      {
        name: "read",
        url: "https://a.example/me",
        headers: { Authorization: "Bearer {{token}}" },
        assertions: [{ source: "status_code", comparison: "equals", target: "200" }],
      },
    ];
    const inputs = monitor({ type: "multistep", url: undefined, steps, variables: { password: "pw-1" } });
    const created = await runtime.create("Monitor", inputs);
    expect((await live(created.id)).data.steps[1]).toEqual({
      name: "read",
      method: "GET",
      url: "https://a.example/me",
      headers: { authorization: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/) },
      body: null,
      statuses: ["2xx", "3xx"],
      extract: [],
      assertions: [{ source: "status_code", property: null, comparison: "equals", target: "200" }],
      cleanup: false,
    });
    const olds = created.outs as Props;
    expect(await runtime.diff("Monitor", created.id, olds, inputs)).toMatchObject({ changes: false });
    const changed = monitor({
      type: "multistep",
      url: undefined,
      steps: [steps[0], { ...steps[1], cleanup: true }],
      variables: { password: "pw-1" },
    });
    expect(await runtime.diff("Monitor", created.id, olds, changed)).toMatchObject({ changes: true, replaces: [] });
  });

  it("maps paused to pause and resume", async () => {
    const created = await runtime.create("Monitor", monitor({ paused: true }));
    expect((await live(created.id)).data.status).toBe("paused");
    const resumed = await runtime.update("Monitor", created.id, created.outs as Props, monitor({ paused: false }));
    expect(resumed.outs).toMatchObject({ paused: false, status: "active" });
    expect((await live(created.id)).data.status).toBe("active");
  });

  it("read reports out-of-band edits and deletion; delete treats 404 as gone", async () => {
    const created = await runtime.create("Monitor", monitor());
    await s.call("PATCH", `/api/v1/monitors/${created.id}`, { interval_sec: 300 });
    await s.call("POST", `/api/v1/monitors/${created.id}/pause`);
    const read = await runtime.read("Monitor", created.id, created.outs as Props);
    expect(read.props).toMatchObject({ intervalSec: 300, paused: true });
    expect(read.inputs).toMatchObject({ intervalSec: 300, paused: true });
    expect(await runtime.diff("Monitor", created.id, read.props as Props, monitor())).toMatchObject({ changes: true });

    await runtime.remove("Monitor", created.id, created.outs as Props);
    expect((await live(created.id)).error.code).toBe("not_found");
    await expect(runtime.remove("Monitor", created.id, created.outs as Props)).resolves.toBeUndefined();
    expect((await runtime.read("Monitor", created.id, created.outs as Props)).id).toBeUndefined();
  });

  it("adopts an existing monitor, updating it to the declared inputs", async () => {
    const existingId = await httpMonitorId(s, "legacy", "https://old.example", { interval_sec: 600 });
    const adopted = await runtime.create("Monitor", monitor({ adopt: existingId, name: "adopted" }));
    expect(adopted.id).toBe(existingId);
    expect((await live(existingId)).data).toMatchObject({
      name: "adopted",
      url: "https://api.example.com/health",
      interval_sec: 60,
    });
    expect(
      (await s.call("GET", "/api/v1/monitors?limit=200")).body.data.filter((m: { id: string }) => m.id === existingId),
    ).toHaveLength(1);
    await expect(
      runtime.create("Monitor", monitor({ adopt: existingId, type: "tcp", url: "tcp://x.example:1" })),
    ).rejects.toThrow(/is of type http/);
    await expect(runtime.create("Monitor", monitor({ adopt: "mon_missing" }))).rejects.toThrow(
      /no monitor mon_missing/,
    );
  });

  it("compares channel configs through the server's fingerprint, and sees a config changed elsewhere", async () => {
    const inputs = {
      name: "hook",
      type: "webhook",
      config: { url: "https://hooks.example.com/T/abc", secret: "0123456789abcdef" },
      connection,
    };
    const created = await runtime.create("Channel", inputs);
    expect(created.outs).toMatchObject({ config: inputs.config });
    expect(await runtime.diff("Channel", created.id, created.outs as Props, inputs)).toMatchObject({ changes: false });
    const rotated = { ...inputs, config: { ...inputs.config, secret: "fedcba9876543210" } };
    expect(await runtime.diff("Channel", created.id, created.outs as Props, rotated)).toMatchObject({
      changes: true,
      replaces: [],
    });

    await s.call("PATCH", `/api/v1/channels/${created.id}`, { config: { url: "https://hooks.example.com/T/other" } });
    const read = await runtime.read("Channel", created.id, created.outs as Props);
    expect(JSON.stringify(read.props)).not.toContain("T/other");
    expect(await runtime.diff("Channel", created.id, read.props as Props, inputs)).toMatchObject({ changes: true });
    const restored = await runtime.update("Channel", created.id, read.props as Props, inputs);
    expect(await runtime.diff("Channel", created.id, restored.outs as Props, inputs)).toMatchObject({ changes: false });
  });

  it("status pages: set semantics for monitors, in-place slug change", async () => {
    const a = await runtime.create("Monitor", monitor({ name: "a" }));
    const b = await runtime.create("Monitor", monitor({ name: "b" }));
    const inputs = { slug: "rt-page", title: "T", monitorIds: [b.id, a.id], connection };
    const page = await runtime.create("StatusPage", inputs);
    expect(page.outs).toMatchObject({
      monitorIds: [a.id, b.id].sort(),
      publicUrl: `${s.url}/api/status/rt-page.json`,
      pageUrl: `${s.url}/status/rt-page`,
    });
    expect(
      await runtime.diff("StatusPage", page.id, page.outs as Props, { ...inputs, monitorIds: [a.id, b.id] }),
    ).toMatchObject({
      changes: false,
    });
    const moved = { ...inputs, slug: "rt-page-2" };
    expect(await runtime.diff("StatusPage", page.id, page.outs as Props, moved)).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect((await runtime.update("StatusPage", page.id, page.outs as Props, moved)).outs).toMatchObject({
      slug: "rt-page-2",
    });
  });
});

describe("provider methods against a server without the extensions", () => {
  it("reads by listing, replaces instead of updating, and leaves objects in place on delete", async () => {
    const s = await startServer({ extensions: false });
    try {
      const connection = { baseUrl: s.url, apiKey: s.key };
      const inputs = { name: "plain", type: "email", config: { address: "a@example.com" }, connection };
      const created = await runtime.create("Channel", inputs);
      const read = await runtime.read("Channel", created.id, created.outs as Props);
      expect(read.id).toBe(created.id);
      expect(read.props).toMatchObject({ name: "plain" });
      const renamed = await runtime.diff("Channel", created.id, created.outs as Props, { ...inputs, name: "renamed" });
      expect(renamed).toMatchObject({ changes: true, replaces: ["name"] });
      await runtime.remove("Channel", created.id, created.outs as Props);
      expect((await s.call("GET", "/api/v1/channels")).body.data.map((c: { id: string }) => c.id)).toContain(
        created.id,
      );
    } finally {
      await s.close();
    }
  });
});
