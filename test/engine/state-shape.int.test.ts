import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import type { UpResult } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { type Field, MONITOR_FIELDS } from "../../api";
import { Fields } from "../../provider/kinds/fields";
import { useServer, useStack } from "../support/engine-suite";

type Props = Record<string, unknown>;
type Resource = { urn: string; id?: string; type: string; outputs?: Props };

/**
 * A monitor's state holds what its type needs; what programs read for what it leaves out; no
 * perpetual diff; drift of a property of the type still seen and repaired; and state as earlier
 * versions wrote it (every property of every type) taken over without a change.
 */
describe("a monitor's state, from earlier versions' shape to this one's", () => {
  const s = useServer();
  const { stack, engine } = useStack({ program: "test/engine/programs/state-shape", server: s });

  /** The monitors' outputs as the stack's state file holds them (secrets encrypted), `__provider` left out, by name. */
  const monitorsInState = (): Record<string, Props> => {
    const [file] = readdirSync(join(engine.stateDir, "backend"), { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && e.name === `${stack.name}.json`,
    );
    const resources: Resource[] = JSON.parse(readFileSync(join(file!.parentPath, file!.name), "utf8")).checkpoint.latest
      .resources;
    return Object.fromEntries(
      resources
        .filter((r) => r.type.endsWith("uptime:Monitor"))
        .map((r) => {
          const { __provider: _p, ...outputs } = r.outputs ?? {};
          return [r.urn.split("::").pop() as string, outputs];
        }),
    );
  };
  // Outputs are read from what `up` returned (a `stack.outputs()` would be two more CLI runs).
  const readsOf = (up: UpResult) => up.outputs.reads?.value as Record<string, unknown>;
  /** The monitors' ids, by name, from the first `up`. */
  let ids: Record<string, string>;
  const live = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
  const secretValue = (value: unknown) => ({ [specialSigKey]: specialSecretSig, plaintext: JSON.stringify(value) });

  /** The stack's state with every monitor's outputs as versions before this one wrote them: every row of the table, as the service returns it. */
  async function asEarlierVersionsWroteIt(): Promise<void> {
    const exported = await stack.exportStack();
    const resources = (exported.deployment as { resources: Resource[] }).resources;
    for (const r of resources.filter((r) => r.type.endsWith("uptime:Monitor"))) {
      const api = await live(r.id as string);
      // Earlier versions wrote `pushUrl` (which reads show only once) as null for every monitor but a heartbeat.
      const all = { ...new Fields(MONITOR_FIELDS).fromApi(api), pushUrl: api.push_url ?? null };
      const rows = MONITOR_FIELDS as Readonly<Record<string, Field>>;
      const sealed = Object.fromEntries(
        Object.entries(all)
          .filter(([, v]) => v !== undefined)
          .map(([p, v]) => [p, rows[p]?.secret ? secretValue(v) : v]),
      );
      r.outputs = { ...sealed, ...r.outputs };
    }
    await stack.importStack(exported);
  }

  it("holds what each type needs, reads undefined for other types' properties, and takes over and shrinks earlier state without a change", async () => {
    const created = await stack.up();
    expect(created.summary.resourceChanges).toEqual({ create: 5 });
    ids = created.outputs.ids?.value as Record<string, string>;
    const expected = {
      apiKeyword: "undefined",
      apiGraceSec: "undefined",
      apiSslExpiryDays: "null",
      apiMethod: '"GET"',
      apiFollowRedirects: "true",
      searchKeywordCaseSensitive: "false",
      jobMethod: "undefined",
      jobGraceSec: "60",
      jobHasPushUrl: true,
    };
    expect(readsOf(created)).toEqual(expected);
    const now = monitorsInState();
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });

    // State as earlier versions wrote it: every property, most of them null.
    await asEarlierVersionsWroteIt();
    const earlier = monitorsInState();
    expect(Object.keys(earlier.api!).length).toBeGreaterThanOrEqual(47);
    // What the issue asks: at most 60% of the outputs and of their bytes, for an http monitor.
    expect(Object.keys(now.api!).length).toBeLessThanOrEqual(0.6 * Object.keys(earlier.api!).length);
    expect(JSON.stringify(now.api).length).toBeLessThanOrEqual(0.6 * JSON.stringify(earlier.api).length);

    const before = await Promise.all(Object.values(ids).map(live));
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
    const takenOver = await stack.up();
    expect(takenOver.summary.resourceChanges).toEqual({ same: 5 });
    // Nothing was written to the service, nothing replaced.
    expect((await Promise.all(Object.values(ids).map(live))).map((m) => m.updated_at)).toEqual(
      before.map((m) => m.updated_at),
    );
    expect(takenOver.outputs.ids?.value).toEqual(ids);

    // A refresh leaves out what each type does not need; then no diff, and the same reads.
    await stack.refresh();
    for (const [name, outputs] of Object.entries(monitorsInState()))
      expect(Object.keys(outputs).sort(), name).toEqual(Object.keys(now[name]!).sort());
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
    const refreshed = await stack.up();
    expect(refreshed.summary.resourceChanges).toEqual({ same: 5 });
    expect(readsOf(refreshed)).toEqual(expected);
  });

  it("sees a change outside Pulumi to a property of the monitor's type, from or to its default, and repairs it", async () => {
    await s.call("PATCH", `/api/v1/monitors/${ids.api}`, { follow_redirects: false });
    await s.call("PATCH", `/api/v1/monitors/${ids.search}`, { keyword_case_sensitive: true });
    await s.call("PATCH", `/api/v1/monitors/${ids.job}`, { grace_sec: 90 });
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 2, update: 3 });
    await stack.refresh();
    expect(monitorsInState()).toMatchObject({
      api: { followRedirects: false },
      search: { keywordCaseSensitive: true },
      job: { graceSec: 90 },
    });
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: 2, update: 3 });
    expect((await live(ids.api!)).follow_redirects).toBe(true);
    expect((await live(ids.search!)).keyword_case_sensitive).toBe(false);
    expect((await live(ids.job!)).grace_sec).toBe(60);
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 5 });
  });
});
