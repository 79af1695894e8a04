import { describe, expect, it } from "vitest";
import { serverMonitors, useServer, useStack } from "../support/engine-suite";
import type { TestServer } from "../support/server";
import { orphansCommand, pulumiKilledWhen, removeEmptySidecars, stateResources } from "./killed-up";

const MONITORS = 24;
/** Few operations at once: each batch holds a few writes, so a kill lands between batches. */
const PARALLEL = 4;

/** Requests the server answered on the monitors' batch route so far. */
async function batchRequests(s: TestServer): Promise<number> {
  const { values } = await s.app.metrics.httpRequests.get();
  return values.filter((v) => v.labels.route === "/api/v1/monitors/batch").reduce((sum, v) => sum + v.value, 0);
}

// Updates and deletes of the default mode (checkpoints written) go out in batches, several writes
// to a request: a `pulumi up` and a `pulumi destroy` killed between two of them leave nothing
// behind, and the README's recovery (cancel, refresh, the command again) finishes the job.
describe("an update of every monitor and a destroy, killed with SIGKILL between their batches", () => {
  const s = useServer();
  const live = serverMonitors(s);
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/fleet",
    server: s,
    config: () => ({ monitors: { value: String(MONITORS) } }),
  });

  /** Runs `pulumi <command>` as CI would, kills it and its plugins once `reached()` holds, then removes an empty sidecar. */
  async function killedWhen(command: "up" | "destroy", reached: () => Promise<boolean>): Promise<void> {
    await pulumiKilledWhen(engine, program.workDir, [command, "--parallel", String(PARALLEL)], reached, {
      pollMs: 5,
      settleMs: 300,
    });
    removeEmptySidecars(engine);
  }

  /** What the state records of each monitor: its interval, by id. */
  async function recorded(): Promise<Map<string, number>> {
    const monitors = (await stateResources(stack)).filter((r) => /uptime:(index:)?Monitor$/.test(r.type));
    return new Map(monitors.map((r) => [r.id as string, Number(r.outputs?.intervalSec)]));
  }

  it("leaves every changed monitor recorded after cancel and refresh, and the next up updates the rest", async () => {
    await stack.up();
    await stack.setConfig("intervalSec", { value: "120" });
    const batchesBefore = await batchRequests(s);
    const updated = async () => (await live()).filter((m) => m.interval_sec === 120).length;
    await killedWhen("up", async () => (await updated()) >= MONITORS / 2);
    const atKill = await updated();
    const batches = (await batchRequests(s)) - batchesBefore;
    console.log(`update killed with ${atKill} of ${MONITORS} monitors updated, in ${batches} batches`);
    expect(atKill).toBeGreaterThan(0);
    // Several updates to a request: the batches were reached with checkpoints written.
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(atKill);
    expect(atKill).toBeLessThan(MONITORS);

    await stack.cancel();
    await stack.refresh();
    // After the README's recovery no monitor is both changed and unrecorded: the state holds each
    // monitor's interval as the server does.
    const state = await recorded();
    expect((await live()).filter((m) => state.get(m.id) !== m.interval_sec).map((m) => m.id)).toEqual([]);
    expect(state.size).toBe(MONITORS);
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect((await live()).map((m) => m.interval_sec)).toEqual(Array(MONITORS).fill(120));
    expect([...(await recorded()).values()]).toEqual(Array(MONITORS).fill(120));
    expect((await stack.preview()).changeSummary).toEqual({ same: MONITORS + 2 });
  }, 600_000);

  it("leaves no deleted monitor in the state after cancel and refresh, and the next destroy deletes the rest", async () => {
    // From the stack the test before left in step with the server (its last preview is clean).
    expect(await live()).toHaveLength(MONITORS);
    const batchesBefore = await batchRequests(s);
    await killedWhen("destroy", async () => (await live()).length <= MONITORS / 2);
    const left = await live();
    const batches = (await batchRequests(s)) - batchesBefore;
    console.log(`destroy killed with ${MONITORS - left.length} of ${MONITORS} monitors deleted, in ${batches} batches`);
    expect(left.length).toBeGreaterThan(0);
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(MONITORS - left.length);
    expect(left.length).toBeLessThan(MONITORS);

    // No live monitor fell out of the state: nothing is left behind.
    expect(await orphansCommand(engine, program.workDir)).toMatchObject({ code: 0, report: { orphans: [] } });

    await stack.cancel();
    await stack.refresh();
    // After the README's recovery the state holds exactly the monitors the server still has.
    expect([...(await recorded()).keys()].sort()).toEqual((await live()).map((m) => m.id).sort());
    const destroyed = await stack.destroy();
    expect(destroyed.summary.result).toBe("succeeded");
    expect(await live()).toEqual([]);
    expect(await recorded()).toEqual(new Map());
  }, 600_000);
});
