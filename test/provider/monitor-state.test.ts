import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MONITOR_FIELDS } from "../../api";
import { Fields } from "../../provider/kinds/fields";
import * as runtime from "../../provider/runtime";
import { startServer, type TestServer } from "../support/server";
import { monitorInputs } from "../support/provider-inputs";

type Props = Record<string, unknown>;

/** The outputs as versions before this one wrote them: every field of the table, as the service returns it. */
const wholeOutputs = (api: object, outputs: Props): Props => ({
  ...new Fields(MONITOR_FIELDS).fromApi(api),
  ...outputs,
});

describe("a monitor's state holds what its type needs", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };
  const monitor = (over: Props = {}): Props => monitorInputs(connection, { tags: ["bench"], ...over });
  const live = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
  let writes = 0;
  /** A read after a write through the provider's client: reads share one list until its next write. */
  const readAfterChange = async (id: string, props: Props) => {
    await runtime.create("Monitor", monitor({ name: `write-${writes++}` }));
    return runtime.read("Monitor", id, props);
  };

  beforeAll(async () => {
    s = await startServer();
    connection = { baseUrl: s.url, apiKey: s.key };
  });
  afterAll(() => s.close());

  it("an http monitor's outputs are at most 60% of the whole outputs, in count and in bytes", async () => {
    const { id, outs } = await runtime.create("Monitor", monitor());
    const whole = wholeOutputs(await live(id), outs);
    const { connection: _c, ...kept } = outs;
    const { connection: _w, ...all } = whole;
    expect(Object.keys(kept).length).toBeLessThanOrEqual(0.6 * Object.keys(all).length);
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(0.6 * JSON.stringify(all).length);
    // Its own properties stay, at their defaults too; those of other types and its nulls go.
    expect(outs).toMatchObject({
      method: "GET",
      headers: {},
      expectedStatusCodes: ["2xx", "3xx"],
      followRedirects: true,
      verifyTls: true,
      assertions: [],
    });
    for (const gone of [
      "keyword",
      "keywordCaseSensitive",
      "graceSec",
      "pushUrl",
      "dnsRecordType",
      "steps",
      "variables",
      "script",
      "body",
      "sslExpiryDays",
      "retry",
    ]) {
      expect(outs, gone).not.toHaveProperty(gone);
    }
  });

  it("a keyword and a heartbeat monitor keep their own properties", async () => {
    const kw = await runtime.create("Monitor", monitor({ name: "kw", type: "keyword", keyword: "ok" }));
    expect(kw.outs).toMatchObject({ keyword: "ok", keywordCaseSensitive: false, expectedStatusCodes: ["2xx", "3xx"] });
    const hb = await runtime.create("Monitor", monitor({ name: "hb", type: "heartbeat", url: undefined }));
    expect(hb.outs).toMatchObject({ graceSec: 60, pushUrl: expect.stringContaining("/push/") });
    expect(hb.outs).not.toHaveProperty("method");
  });

  it("a property of another type set through the API stays, so a program that declares it sees no diff", async () => {
    const created = await runtime.create("Monitor", monitor({ name: "grace", graceSec: 120 }));
    expect(created.outs).toMatchObject({ graceSec: 120 });
    const diff = await runtime.diff("Monitor", created.id, created.outs, monitor({ name: "grace", graceSec: 120 }));
    expect(diff.changes).toBe(false);
  });

  it("a change outside Pulumi to a property of the type is read, and differs from the inputs; whole outputs of earlier versions diff clean", async () => {
    const inputs = monitor({ name: "drift" });
    const { id, outs } = await runtime.create("Monitor", inputs);
    expect((await runtime.diff("Monitor", id, outs, inputs)).changes).toBe(false);
    // State as earlier versions wrote it: no diff, and a refresh leaves out what the type does not need.
    const whole = wholeOutputs(await live(id), outs);
    expect((await runtime.diff("Monitor", id, whole, inputs)).changes).toBe(false);
    const refreshed = await runtime.read("Monitor", id, whole);
    expect(refreshed.props).toEqual(outs);
    // Drift to a non-default value and back to the default (which the state leaves out) are both seen.
    await s.call("PATCH", `/api/v1/monitors/${id}`, { follow_redirects: false, ssl_expiry_days: 14 });
    const drifted = await readAfterChange(id, outs);
    expect(drifted.props).toMatchObject({ followRedirects: false, sslExpiryDays: 14 });
    expect((await runtime.diff("Monitor", id, drifted.props as Props, inputs)).changed.sort()).toEqual([
      "followRedirects",
      "sslExpiryDays",
    ]);
    const repaired = await runtime.update("Monitor", id, drifted.props as Props, inputs);
    expect(repaired.outs).toEqual({ ...outs, updatedAt: expect.any(String) });
    const declared = monitor({ name: "drift", sslExpiryDays: 14 });
    const set = await runtime.update("Monitor", id, outs, declared);
    await s.call("PATCH", `/api/v1/monitors/${id}`, { ssl_expiry_days: null });
    const back = await readAfterChange(id, set.outs as Props);
    expect(back.props).not.toHaveProperty("sslExpiryDays");
    expect((await runtime.diff("Monitor", id, back.props as Props, declared)).changed).toEqual(["sslExpiryDays"]);
  });
});
