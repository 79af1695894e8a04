import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor } from "../../provider/client/client";
import * as runtime from "../../provider/runtime";
import { startServer, type TestServer } from "../support/server";
import { channelInputs, monitorInputs, statusPageInputs } from "./arbitraries";

type Props = Record<string, unknown>;
type KindName = "Monitor" | "Channel" | "StatusPage";

/** Cases per kind; PROPERTY_RUNS overrides it (e.g. a quick local run). */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 500);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261121);

describe("no perpetual diff: create → read → diff reports no change, for generated inputs", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };
  const channelIds: string[] = [];
  const monitorIds: string[] = [];
  const timings: Record<string, string> = {};

  beforeAll(async () => {
    // One server for every case; no rate limit on either side (thousands of calls on loopback).
    s = await startServer({ rateLimit: 10_000_000 });
    connection = { baseUrl: s.url, apiKey: s.key };
    clientFor(connection, { requestsPerMinute: 600_000_000 });
    for (let i = 0; i < 4; i++) {
      channelIds.push(
        (
          await s.call("POST", "/api/v1/channels", {
            name: `c${i}`,
            type: "email",
            config: { address: `c${i}@example.com` },
          })
        ).body.data.id,
      );
      monitorIds.push(
        (
          await s.call("POST", "/api/v1/monitors", {
            name: `m${i}`,
            type: "http",
            url: "https://example.com",
            interval_sec: 60,
          })
        ).body.data.id,
      );
    }
  });
  afterAll(async () => {
    console.table(timings);
    await s?.close();
  });

  /** One case: the inputs pass check, and neither the created nor the refreshed state differs from them. */
  let made = 0;
  async function roundTrip(kind: KindName, generated: Props): Promise<void> {
    // Marked like a resource of a program: the mark must never show as a change either.
    const identity = { project: "property", stack: "test", kind, name: `case-${++made}` };
    const inputs = { ...generated, connection, __identity: identity };
    const checked = await runtime.check(kind, {}, inputs);
    expect(checked.failures, JSON.stringify(generated)).toEqual([]);
    const created = await runtime.create(kind, checked.inputs as Props);
    try {
      expect(created.outs?.externalId).toBe(`pulumi/property/test/${kind}/${identity.name}`);
      const afterCreate = await runtime.diff(kind, created.id, created.outs as Props, inputs);
      expect(afterCreate.changes, `after create: ${JSON.stringify(generated)}`).toBe(false);
      const read = await runtime.read(kind, created.id, created.outs as Props);
      expect(read.id).toBe(created.id);
      const afterRefresh = await runtime.diff(kind, created.id, read.props as Props, inputs);
      expect(afterRefresh.changes, `after refresh: ${JSON.stringify(generated)}`).toBe(false);
    } finally {
      await runtime.remove(kind, created.id, created.outs as Props);
    }
  }

  const cases: [KindName, () => fc.Arbitrary<Props>][] = [
    ["Monitor", () => monitorInputs(channelIds)],
    ["Channel", () => channelInputs],
    ["StatusPage", () => statusPageInputs(monitorIds)],
  ];

  for (const [kind, arbitrary] of cases) {
    it(`${kind}: ${RUNS} generated cases`, async () => {
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(arbitrary(), (generated) => roundTrip(kind, generated)),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      timings[kind] = `${RUNS} cases in ${((performance.now() - started) / 1000).toFixed(1)} s`;
    });
  }
});
