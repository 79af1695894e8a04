import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_KINDS } from "../../plugin/kinds";
import { uptimeProvider } from "../../plugin/provider";
import { KINDS } from "../../provider/kinds/registry";
import { startServer, type TestServer } from "../support/server";

type Props = Record<string, unknown>;
const URN = "urn:pulumi:dev::shop::uptime:index:Monitor::storefront";

/** Every input property of the monitor at its schema default, as a generated SDK fills them in. */
const SDK_DEFAULTS: Props = Object.fromEntries(
  Object.entries(KINDS.Monitor.fields.table)
    .filter(([, f]) => !f.outputOnly && !f.required && ["string", "number", "boolean"].includes(typeof f.default))
    .map(([p, f]) => [p, f.default]),
);

describe("the native plugin's diff against a real server", () => {
  let s: TestServer;
  const provider = uptimeProvider(PLUGIN_KINDS, "0.0.0");
  // What the Python SDK sends for `Monitor("storefront", type=..., url=..., interval_sec=60, tags=[...])`.
  const program: Props = {
    ...SDK_DEFAULTS,
    type: "http",
    url: "https://shop.example.com/",
    intervalSec: 60,
    tags: ["shop"],
  };
  // The same as the engine sends it to diff: checked, with the name defaulted; the SDK's defaults
  // are kept, to show that the diff does not list them whichever form it receives.
  const news: Props = { ...program, name: "storefront" };

  beforeAll(async () => {
    s = await startServer();
    await provider.configure({ baseUrl: s.url, apiKey: s.key });
  });
  afterAll(() => s.close());

  it("check leaves out the defaults an SDK fills in, so a program's inputs compare equal to refreshed ones", async () => {
    expect(Object.keys(SDK_DEFAULTS)).toEqual(
      expect.arrayContaining(["method", "paused", "confirmations", "followRedirects"]),
    );
    const { inputs } = await provider.check!(URN, {}, program);
    expect(inputs).toEqual({
      type: "http",
      url: "https://shop.example.com/",
      intervalSec: 60,
      tags: ["shop"],
      name: "storefront",
    });
    const created = await provider.create!(URN, inputs);
    const refreshed = await provider.read!(created.id, URN, created.outs);
    expect(refreshed.inputs).toEqual(inputs);
  });

  it("keeps steps with a credential written as plain text as a secret, in the checked inputs and the outputs", async () => {
    const urn = "urn:pulumi:dev::shop::uptime:index:Monitor::journey";
    const steps = (headers: Record<string, string>) => [
      { name: "call", url: "https://shop.example.com/api", headers: { Accept: "text/plain", ...headers } },
    ];
    const journey = (headers: Record<string, string>) => ({
      type: "multistep",
      intervalSec: 60,
      variables: { token: "t0k" },
      steps: steps(headers),
    });
    const plain = await provider.check!(urn, {}, journey({ "X-Api-Key": "k3y-written-plainly" }));
    expect(plain.inputs.steps).toMatchObject({
      [specialSigKey]: specialSecretSig,
      value: steps({ "X-Api-Key": "k3y-written-plainly" }),
    });
    const created = await provider.create!(urn, plain.inputs);
    expect((created.outs as Props).steps).toMatchObject({ [specialSigKey]: specialSecretSig });
    // A variable in the header, behind a scheme word, is no credential: the steps stay readable in diffs.
    const templated = await provider.check!(urn, {}, journey({ Authorization: "Bearer {{token}}" }));
    expect(templated.inputs.steps).toEqual(steps({ Authorization: "Bearer {{token}}" }));
    await s.call("DELETE", `/api/v1/monitors/${created.id}`);
  });

  it("a drift diff names exactly the properties that drifted, and how", async () => {
    const { inputs } = await provider.check!(URN, {}, program);
    const created = await provider.create!(URN, inputs);
    await s.call("PATCH", `/api/v1/monitors/${created.id}`, { interval_sec: 900, tags: ["edited"] });
    await s.call("POST", `/api/v1/monitors/${created.id}/pause`);
    const refreshed = await provider.read!(created.id, URN, created.outs);
    const diff = await provider.detailedDiff(
      created.id,
      URN,
      refreshed.props as Props,
      news,
      refreshed.inputs as Props,
    );
    expect(diff.diffs.sort()).toEqual(["intervalSec", "paused", "tags"]);
    expect(diff.detailedDiff).toEqual({
      intervalSec: { kind: "update", replace: false },
      tags: { kind: "update", replace: false },
      // Refresh recorded `paused: true`; the SDK sends the default, false.
      paused: { kind: "update", replace: false },
    });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    // A YAML program leaves `paused` out: the state's value is deleted.
    const yaml = await provider.detailedDiff(
      created.id,
      URN,
      refreshed.props as Props,
      inputs,
      refreshed.inputs as Props,
    );
    expect(yaml.detailedDiff.paused).toEqual({ kind: "delete", replace: false });
  });

  it("a replacing property is a replace in the detailed diff; an unchanged resource has no diff", async () => {
    const { inputs } = await provider.check!(URN, {}, program);
    const created = await provider.create!(URN, inputs);
    const same = await provider.detailedDiff(created.id, URN, created.outs, news, inputs);
    expect(same).toMatchObject({ changes: false, diffs: [], detailedDiff: {} });
    const retyped = await provider.detailedDiff(
      created.id,
      URN,
      created.outs,
      { ...news, type: "keyword", keyword: "Shop" },
      inputs,
    );
    expect(retyped.replaces).toEqual(["type"]);
    expect(retyped.detailedDiff).toEqual({
      type: { kind: "update", replace: true },
      keyword: { kind: "add", replace: false },
    });
  });
});

describe("the native plugin's typed shapes and functions against a real server", () => {
  let s: TestServer;
  const provider = uptimeProvider(PLUGIN_KINDS, "0.0.0");
  const CHANNEL = "urn:pulumi:dev::shop::uptime:index:Channel::oncall";

  beforeAll(async () => {
    s = await startServer();
    await provider.configure({ baseUrl: s.url, apiKey: s.key });
  });
  afterAll(() => s.close());

  it("takes a channel's config as the block of its type, and returns it so; the API holds the flat config", async () => {
    const config = { webhook: { url: `${s.url}/hooks/typed-config-token` } };
    const { inputs, failures } = await provider.check!(CHANNEL, {}, { type: "webhook", config });
    expect(failures).toEqual([]);
    const created = await provider.create!(CHANNEL, inputs);
    expect((created.outs as Props).config).toMatchObject({ value: config });
    expect((await s.call("GET", `/api/v1/channels/${created.id}`)).body.data).toMatchObject({
      type: "webhook",
      name: "oncall",
    });
    const refreshed = await provider.read!(created.id, CHANNEL, created.outs);
    expect((refreshed.props as Props).config).toMatchObject({ value: config });
    const same = await provider.detailedDiff(
      created.id,
      CHANNEL,
      refreshed.props as Props,
      { ...inputs, name: "oncall" },
      inputs,
    );
    expect(same.changes).toBe(false);
  });

  it("fails a check naming the typed property: a rule of the type's config, a block of another type", async () => {
    const bad = await provider.check!(CHANNEL, {}, { type: "webhook", config: { webhook: { url: "ftp://x" } } });
    expect(bad.failures).toEqual([
      expect.objectContaining({ property: "", reason: expect.stringMatching(/^config\.webhook\.url: /) }),
    ]);
    const other = await provider.check!(
      CHANNEL,
      {},
      { type: "webhook", config: { slack: { webhookUrl: "https://hooks.example.com/x" } } },
    );
    expect(other.failures?.[0]).toEqual(
      expect.objectContaining({ reason: "config.slack: a webhook channel takes only config.webhook" }),
    );
  });

  it("answers getMonitor with the live monitor's outputs, secrets left out, and the reads as functions", async () => {
    const { inputs } = await provider.check!(
      URN,
      {},
      { type: "http", url: "https://shop.example.com/", intervalSec: 60, headers: { "x-token": "lookup-secret-1" } },
    );
    const created = await provider.create!(URN, inputs);
    const found = (await provider.invoke!("uptime:index:getMonitor", { id: created.id })).outputs as Props;
    expect(found).toMatchObject({ id: created.id, url: "https://shop.example.com/", intervalSec: 60, type: "http" });
    expect(JSON.stringify(found)).not.toContain("lookup-secret-1");
    const stats = (await provider.invoke!("uptime:index:getMonitorStats", { monitorId: created.id, days: 1 }))
      .outputs as Props;
    expect(stats).toMatchObject({ monitorId: created.id, checks: expect.any(Number) });
    const beats = (await provider.invoke!("uptime:index:getMonitorHeartbeats", { monitorId: created.id }))
      .outputs as Props;
    expect(beats.heartbeats).toEqual(expect.any(Array));
    await expect(provider.invoke!("uptime:index:getMonitor", { id: "mon_missing" })).rejects.toThrow(
      /getMonitor: there is no monitor with id mon_missing/,
    );
  });

  it("answers a lookup by name, and refuses one that matches none or two, saying how many matched", async () => {
    const { inputs } = await provider.check!(
      URN,
      {},
      { name: "by-name", type: "http", url: "https://name.example.com/", intervalSec: 60 },
    );
    const created = await provider.create!(URN, inputs);
    const found = (await provider.invoke!("uptime:index:getMonitor", { name: "by-name" })).outputs as Props;
    expect(found).toMatchObject({ id: created.id, name: "by-name", url: "https://name.example.com/" });
    await expect(provider.invoke!("uptime:index:getMonitor", { name: "nobody" })).rejects.toThrow(
      /name "nobody" matches 0 monitors/,
    );
    const twin = `${URN}-twin`;
    await provider.create!(
      twin,
      (
        await provider.check!(
          twin,
          {},
          { name: "by-name", type: "http", url: "https://twin.example.com/", intervalSec: 60 },
        )
      ).inputs,
    );
    await expect(provider.invoke!("uptime:index:getMonitor", { name: "by-name" })).rejects.toThrow(
      /name "by-name" matches 2 monitors/,
    );
    expect(await provider.invoke!("uptime:index:getMonitor", {})).toEqual({
      failures: [{ property: "id", reason: "id: give either id or name" }],
    });
    expect(await provider.invoke!("uptime:index:getStatusPage", { id: "sp_x", slug: "x" })).toEqual({
      failures: [{ property: "slug", reason: "slug: give either id or slug, not both" }],
    });
  });

  it("refuses a read without its monitorId or slug with a check failure naming the property", async () => {
    for (const [token, property] of [
      ["uptime:index:getMonitorStats", "monitorId"],
      ["uptime:index:getMonitorHeartbeats", "monitorId"],
      ["uptime:index:getStatusDocument", "slug"],
    ]) {
      // What an SDK sends when the argument was lost or left empty: no request reaches the service.
      for (const inputs of [{}, { [property!]: "" }]) {
        const result = await provider.invoke!(token!, inputs);
        expect(result, `${token} ${JSON.stringify(inputs)}`).toEqual({
          failures: [{ property, reason: `${property}: is required` }],
        });
      }
    }
  });
});

describe("the native plugin's check of values of the wrong type (what an untyped Python call sends)", () => {
  let s: TestServer;
  const provider = uptimeProvider(PLUGIN_KINDS, "0.0.0");
  beforeAll(async () => {
    s = await startServer();
    await provider.configure({ baseUrl: s.url, apiKey: s.key });
  });
  afterAll(() => s.close());

  it("fails the preview naming each property and its rule: scalars, enums, object types, a channel type's config", async () => {
    const monitor = await provider.check!(
      URN,
      {},
      {
        type: "http",
        url: "https://shop.example.com/",
        intervalSec: "sixty",
        method: "FETCH",
        followRedirects: "yes",
        assertions: [{ source: "json_body", property: "$.ok", comparison: "equals", target: 5 }],
        escalation: [{ after: "soon", channels: ["chn_1"] }],
      },
    );
    // A nested path goes without a property (Pulumi would print the whole input's value): the reason names it.
    const nameOf = (f: { property: string; reason: string }) => f.property || f.reason.slice(0, f.reason.indexOf(": "));
    const named = (monitor.failures ?? []).map(nameOf).sort();
    expect(named).toEqual(["assertions[0].target", "escalation[0].after", "followRedirects", "intervalSec", "method"]);
    for (const f of monitor.failures ?? []) expect(f.reason.startsWith(`${nameOf(f)}: `), f.reason).toBe(true);
    const channel = await provider.check!(
      "urn:pulumi:dev::shop::uptime:index:Channel::oncall",
      {},
      { type: "pagerduty", config: { pagerduty: { routingKey: 42, severity: "loud" } } },
    );
    expect((channel.failures ?? []).map(nameOf).sort()).toEqual([
      "config.pagerduty.routingKey",
      "config.pagerduty.severity",
    ]);
  });
});
