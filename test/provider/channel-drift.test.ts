import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { startServer, type TestServer } from "../support/server";

type Props = Record<string, unknown>;

describe("channel config drift through the keyed fingerprint", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };
  const channel = (url: string): Props => ({ name: "hook", type: "webhook", config: { url }, connection });

  beforeAll(async () => {
    s = await startServer();
    connection = { baseUrl: s.url, apiKey: s.key };
  });
  afterAll(() => s.close());

  it("records the written fingerprint: no diff after a write, a diff when the program or the service changes the config", async () => {
    const inputs = channel("https://hooks.example.com/a?token=one");
    const created = await runtime.create("Channel", inputs);
    const outs = created.outs as Props;
    expect(outs.writtenFingerprint).toBe(outs.configFingerprint);
    expect(outs.config).toEqual(inputs.config);
    expect((await runtime.diff("Channel", created.id, outs, inputs)).changes).toBe(false);

    // A refresh with nothing changed keeps the record: still no diff.
    const read = await runtime.read("Channel", created.id, outs);
    expect(read.props).toMatchObject({ writtenFingerprint: outs.writtenFingerprint, config: inputs.config });
    expect((await runtime.diff("Channel", created.id, read.props as Props, inputs)).changes).toBe(false);

    // The program declares another config: a change of `config`, and after the update none.
    const changed = channel("https://hooks.example.com/a?token=two");
    expect(await runtime.diff("Channel", created.id, read.props as Props, changed)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const updated = (await runtime.update("Channel", created.id, read.props as Props, changed)).outs as Props;
    expect(updated.writtenFingerprint).not.toBe(outs.writtenFingerprint);
    expect((await runtime.diff("Channel", created.id, updated, changed)).changes).toBe(false);

    // Someone changes it behind Pulumi's back: the refresh shows it, the update puts it back.
    const patched = await s.call("PATCH", `/api/v1/channels/${created.id}`, {
      config: { url: "https://hooks.example.com/b?token=x" },
    });
    expect(patched.status).toBe(200);
    const refreshed = (await runtime.read("Channel", created.id, updated)).props as Props;
    expect(refreshed.configFingerprint).not.toBe(updated.writtenFingerprint);
    expect((await runtime.diff("Channel", created.id, refreshed, changed)).changes).toBe(true);
    const restored = (await runtime.update("Channel", created.id, refreshed, changed)).outs as Props;
    expect((await runtime.diff("Channel", created.id, restored, changed)).changes).toBe(false);
    expect(restored.configFingerprint).toBe(updated.writtenFingerprint);
  });

  it("state without a recorded fingerprint does not fail: refreshed against this server, `config` changes once", async () => {
    const inputs = channel("https://hooks.example.com/legacy?token=t");
    const created = await runtime.create("Channel", inputs);
    const { writtenFingerprint: _dropped, ...legacy } = created.outs as Props;
    const oldHash = createHash("sha256")
      .update(`${created.id}\n${JSON.stringify({ url: "https://hooks.example.com/legacy?token=t" })}`)
      .digest("hex");
    const old = { ...legacy, configFingerprint: oldHash };
    // Without a refresh, the old state is trusted as it is.
    expect((await runtime.diff("Channel", created.id, old, inputs)).changes).toBe(false);
    const refreshed = (await runtime.read("Channel", created.id, old)).props as Props;
    expect(refreshed.writtenFingerprint).toBeUndefined();
    expect((await runtime.diff("Channel", created.id, refreshed, inputs)).changes).toBe(true);
    const rewritten = (await runtime.update("Channel", created.id, refreshed, inputs)).outs as Props;
    expect(rewritten.writtenFingerprint).toBe(rewritten.configFingerprint);
    expect((await runtime.diff("Channel", created.id, rewritten, inputs)).changes).toBe(false);
  });
});
