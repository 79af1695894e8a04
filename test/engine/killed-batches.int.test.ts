import { spawn } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";
import { killTree } from "../support/process-tree";
import type { TestServer } from "../support/server";
import { orphansCommand, stateResources } from "./killed-up";

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
  let accountId: string;
  const live = async () => (await s.app.store.monitors.list(accountId, { limit: 1000 })).items;
  const s = useServer();
  beforeAll(async () => {
    accountId = (await s.app.store.keys.authenticate(s.key))?.accountId as string;
  });
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/fleet",
    server: s,
    config: () => ({ monitors: { value: String(MONITORS) } }),
  });
  // A killed run leaves the stack locked: unlocked before the destroy at the end.
  afterAll(() => stack.cancel().catch(() => undefined));

  /** Runs `pulumi <command>` as CI would, and kills it and its plugins once `reached()` holds. */
  async function killedWhen(command: "up" | "destroy", reached: () => Promise<boolean>): Promise<void> {
    const cli = spawn(
      join(engine.binDir, "pulumi"),
      [command, "--yes", "--skip-preview", "--non-interactive", "--stack", "dev", "--parallel", String(PARALLEL)],
      {
        cwd: program.workDir,
        env: { ...process.env, ...engine.envVars },
        detached: true,
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    const deadline = Date.now() + 120_000;
    while (!(await reached()) && cli.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    killTree(cli.pid as number);
    await exited;
    // A request in flight at the kill may still land.
    await new Promise((r) => setTimeout(r, 300));
    removeEmptySidecars();
  }

  /**
   * A kill while the file backend writes the stack's `.json.attrs` sidecar leaves it empty, and
   * every command then fails to load the checkpoint; the README's recovery deletes it.
   */
  function removeEmptySidecars(): void {
    const stacks = join(engine.stateDir, "backend", ".pulumi", "stacks");
    for (const f of readdirSync(stacks, { recursive: true, encoding: "utf8" })) {
      const path = join(stacks, f);
      if (path.endsWith(".json.attrs") && statSync(path).size === 0) rmSync(path);
    }
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
    // From a stack in step with the server, whatever the test before left.
    await stack.cancel().catch(() => undefined);
    await stack.refresh();
    await stack.up();
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
