/**
 * `pulumi preview` with inputs not known yet (Outputs of other resources): check validates what
 * is known and never fails on a value that is not known, for every input of every kind, through
 * the runtime (dynamic resources) and through the native plugin's gRPC provider.
 */
import fc from "fast-check";
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type Field, RESOURCE_FIELDS } from "../../api";
import { UNKNOWN } from "../../provider/kinds/values";
import { KINDS, type KindName } from "../../provider/kinds/registry";
import * as runtime from "../../provider/runtime";
import type { MaintenanceWindowArgs, MonitorArgs, StatusPageArgs } from "../../provider/index";
import { PLUGIN_KINDS } from "../../plugin/kinds";
import { uptimeProvider } from "../../plugin/provider";
import { channelInputs, monitorInputs, statusPageInputs } from "./arbitraries";

type Props = Record<string, unknown>;

const connection = { baseUrl: "http://127.0.0.1:9", apiKey: "uk_unknowns_test" };
const RUNS = 40;

const maintenanceWindowInputs: fc.Arbitrary<Props> = fc
  .record({
    hours: fc.integer({ min: 1, max: 48 }),
    monitorIds: fc.array(fc.constantFrom("mon_a", "mon_b"), { minLength: 1, maxLength: 3 }),
  })
  .map(({ hours, monitorIds }) => ({
    name: "deploy",
    monitorIds,
    startsAt: "2030-01-01T00:00:00Z",
    endsAt: new Date(Date.UTC(2030, 0, 1, hours)).toISOString(),
  }));

/** Valid inputs of each kind, as users write them. */
const VALID: Record<KindName, fc.Arbitrary<Props>> = {
  Monitor: monitorInputs(["chn_a", "chn_b"]),
  Channel: channelInputs,
  StatusPage: statusPageInputs(["mon_a", "mon_b"]),
  MaintenanceWindow: maintenanceWindowInputs,
};

/** Every input property of a kind: its table's rows a program can set, and `adopt`, `connection`. */
function inputFields(kind: KindName): [string, Field][] {
  return Object.entries({ ...KINDS[kind].fields.table, ...RESOURCE_FIELDS } as Record<string, Field>).filter(
    ([, f]) => !f.outputOnly,
  );
}

/** The value with an unknown inside: an unknown element in a list, an unknown value in a map. */
function unknownInside(field: Field, value: unknown, at: number): unknown {
  if (field.type.type === "array") {
    const list = Array.isArray(value) ? [...(value as unknown[])] : [];
    list.splice(at % (list.length + 1), 0, UNKNOWN);
    return list;
  }
  if (field.type.type === "object") {
    const map = { ...(value as Props | undefined) };
    const keys = Object.keys(map);
    map[keys.length ? (keys[at % keys.length] as string) : "x-later"] = UNKNOWN;
    return map;
  }
  return UNKNOWN;
}

const provider = uptimeProvider(PLUGIN_KINDS, "0.0.0-test");
const plugin = { check: provider.check! };
const urn = (kind: KindName) => `urn:pulumi:dev::unknowns::uptime:index:${kind}::r`;

/** The failures of both checks: the runtime's (dynamic resources) and the native plugin's. */
async function failures(kind: KindName, inputs: Props): Promise<unknown[]> {
  const dynamic = (await runtime.check(kind, {}, inputs)).failures ?? [];
  const native = (await plugin.check(urn(kind), {}, inputs)).failures ?? [];
  return [...dynamic, ...native];
}

describe("check with inputs not known yet", () => {
  for (const kind of Object.keys(KINDS) as KindName[]) {
    for (const [property, field] of inputFields(kind)) {
      it(`${kind}.${property}: unknown as a whole and unknown inside, no failure`, async () => {
        await fc.assert(
          fc.asyncProperty(VALID[kind], fc.nat(), async (valid, at) => {
            const base: Props = { ...valid, connection };
            expect(await failures(kind, base), "the valid inputs pass").toEqual([]);
            expect(await failures(kind, { ...base, [property]: UNKNOWN })).toEqual([]);
            expect(await failures(kind, { ...base, [property]: unknownInside(field, base[property], at) })).toEqual([]);
          }),
          { numRuns: RUNS },
        );
      });
    }

    it(`${kind}: any set of inputs unknown at once, no failure`, async () => {
      const fields = inputFields(kind);
      await fc.assert(
        fc.asyncProperty(
          VALID[kind],
          fc.subarray(
            fields.map(([p]) => p),
            { minLength: 1 },
          ),
          async (valid, unknown) => {
            const inputs: Props = { ...valid, connection };
            for (const p of unknown) inputs[p] = UNKNOWN;
            expect(await failures(kind, inputs)).toEqual([]);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it("still judges the known values beside unknown ones, naming each as written", async () => {
    const monitor = { name: "api", type: "http", url: "https://example.com", connection };
    expect(await runtime.check("Monitor", {}, { ...monitor, intervalSec: UNKNOWN, timeoutSec: 90 })).toMatchObject({
      failures: [{ property: "timeoutSec", reason: expect.stringMatching(/^timeoutSec: must be at most 60/) }],
    });
    expect(
      (await runtime.check("Monitor", {}, { ...monitor, intervalSec: 60, channelIds: [UNKNOWN, UNKNOWN, ""] }))
        .failures,
    ).toEqual([{ property: "channelIds[2]", reason: expect.stringMatching(/^channelIds\[2\]: /) }]);
    const channel = await plugin.check(
      urn("Channel"),
      {},
      { type: "webhook", config: { url: "ftp://x", secret: UNKNOWN }, connection },
    );
    expect(channel.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^config\.url: must be an http/) },
    ]);
    const page = await runtime.check("StatusPage", {}, { slug: UNKNOWN, title: "", monitorIds: [UNKNOWN], connection });
    expect(page.failures?.map((f) => f.property)).toEqual(["title", "title"]);
  });

  it("the resource classes take a whole Output for each input, of its type", () => {
    expectTypeOf<pulumi.Output<boolean>>().toExtend<MonitorArgs["paused"]>();
    expectTypeOf<pulumi.Output<"http" | "tcp">>().toExtend<MonitorArgs["type"]>();
    expectTypeOf<pulumi.Output<number>>().toExtend<MonitorArgs["intervalSec"]>();
    expectTypeOf<pulumi.Output<string[]>>().toExtend<MonitorArgs["channelIds"]>();
    expectTypeOf<pulumi.Output<Record<string, string>>>().toExtend<MonitorArgs["headers"]>();
    expectTypeOf<pulumi.Output<string[]>>().toExtend<StatusPageArgs["monitorIds"]>();
    expectTypeOf<pulumi.Output<string>>().toExtend<MaintenanceWindowArgs["startsAt"]>();
  });
});
