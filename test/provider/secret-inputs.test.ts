import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { UNDECLARED } from "../../provider/runtime/secret-inputs";
import { PLUGIN_KINDS } from "../../plugin/kinds";
import { uptimeProvider } from "../../plugin/provider";
import { postMonitor, startServer, type TestServer } from "../support/server";
import { monitorInputs } from "../support/provider-inputs";

type Props = Record<string, unknown>;

const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });

describe("secret inputs across refresh, import and adopt", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };
  const monitor = (over: Props = {}): Props => monitorInputs(connection, { method: "POST", ...over });
  const live = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;

  beforeAll(async () => {
    s = await startServer();
    connection = { baseUrl: s.url, apiKey: s.key };
  });
  afterAll(() => s.close());

  it("a refresh records the secret inputs, as written and marked secret, so an unchanged program diffs clean", async () => {
    const inputs = monitor({ headers: { "X-Token": "t0p" }, body: '{"probe":1}' });
    const created = await runtime.create("Monitor", inputs);
    await s.call("PATCH", `/api/v1/monitors/${created.id}`, { interval_sec: 300 });
    const read = await runtime.read("Monitor", created.id, created.outs as Props);
    expect(read.inputs).toMatchObject({
      intervalSec: 300,
      headers: secret({ "X-Token": "t0p" }),
      body: secret('{"probe":1}'),
    });
    // `ignoreChanges: ["headers"]` sends the recorded headers: no change there, nothing wiped.
    const ignoring = { ...inputs, intervalSec: 300, headers: { "X-Token": "t0p" } };
    expect(await runtime.diff("Monitor", created.id, read.props as Props, ignoring)).toMatchObject({ changes: false });

    const channel = await runtime.create("Channel", {
      name: "hook",
      type: "webhook",
      config: { url: `${s.url}/hooks/secret-tok` },
      connection,
    });
    const channelRead = await runtime.read("Channel", channel.id, channel.outs as Props);
    expect(channelRead.inputs).toMatchObject({ config: secret({ url: `${s.url}/hooks/secret-tok` }) });
  });

  it("an import records no secret and fails the first check naming each one the program leaves out", async () => {
    const body = {
      type: "http",
      url: "https://x.example.com",
      method: "POST",
      body: "b",
      headers: { "X-A": "1", "X-B": "2" },
    };
    const id = (await postMonitor(s, body)).body.data.id as string;
    const provider = uptimeProvider(PLUGIN_KINDS, "0.0.0-test");
    const plugin = { configure: provider.configure, read: provider.read!, check: provider.check! };
    const urn = "urn:pulumi:dev::p::uptime:index:Monitor::legacy";
    await plugin.configure({ baseUrl: s.url, apiKey: s.key });
    const imported = await plugin.read(id, urn, {});
    const inputs = imported.inputs as Props;
    expect(JSON.stringify(inputs)).not.toMatch(/"1"|"2"|"b"/);
    expect(inputs).not.toHaveProperty("headers");
    expect(inputs).not.toHaveProperty("body");
    // The import's own check passes; a program that leaves the secrets out fails, naming each.
    expect((await plugin.check(urn, inputs, inputs)).failures).toEqual([]);
    const program = {
      name: "by hand",
      type: "http",
      url: "https://x.example.com",
      intervalSec: 60,
      method: "POST",
      connection,
    };
    expect((await plugin.check(urn, inputs, program)).failures).toEqual([
      {
        property: "headers",
        reason: `headers: monitor ${id} holds 2 request headers this program does not declare; declare them (from secret config) or set \`headers: {}\` to remove them`,
      },
      {
        property: "body",
        reason: `body: monitor ${id} holds a request body this program does not declare; declare it (from secret config) or set \`body: null\` to remove it`,
      },
    ]);
    expect(
      (await plugin.check(urn, inputs, { ...program, headers: secret({ "x-a": "1", "x-b": "2" }), body: null }))
        .failures,
    ).toEqual([]);
    // A refresh before the program declares them keeps them undeclared.
    const refreshed = await plugin.read(id, urn, { ...(imported.props as Props), [UNDECLARED]: inputs[UNDECLARED] });
    expect(refreshed.inputs).toMatchObject({ [UNDECLARED]: inputs[UNDECLARED] });
    expect(refreshed.inputs).not.toHaveProperty("headers");
    expect((await live(id)).headers).toEqual({ "x-a": "1", "x-b": "2" });
  });

  it("adopt of an object whose secrets the inputs leave out fails before any write", async () => {
    const body = {
      type: "http",
      url: "https://old.example",
      interval_sec: 600,
      headers: { Authorization: "Bearer z" },
    };
    const id = (await postMonitor(s, body)).body.data.id as string;
    await expect(runtime.create("Monitor", monitor({ adopt: id, method: "GET" }))).rejects.toThrow(
      new RegExp(`adopt: headers: monitor ${id} holds 1 request header this program does not declare`),
    );
    // A secret header reads as its fingerprint; the same value keeps the same one.
    const fingerprint = ((await live(id)) as { headers: Record<string, string> }).headers.authorization;
    expect(fingerprint).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(await live(id)).toMatchObject({ interval_sec: 600 });
    const adopted = await runtime.create(
      "Monitor",
      monitor({ adopt: id, method: "GET", headers: { Authorization: "Bearer z" } }),
    );
    expect(adopted.id).toBe(id);
    expect(await live(id)).toMatchObject({ interval_sec: 60, headers: { authorization: fingerprint } });
  });
});
