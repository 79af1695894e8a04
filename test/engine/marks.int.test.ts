import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineEngine } from "../../scripts/pulumi-engine";
import { outputValues, useEngine, useServer } from "../support/engine-suite";
import { stackInstanceOf } from "./killed-up";
import { postMonitor } from "../support/server";
import { programCopy } from "./programs";

const PROJECT = "uptime-engine-test";
/**
 * The marks of `stack`'s resources, with the stack instance its state holds now (read once: each
 * read is a `pulumi stack export`).
 */
const marksOf = async (stack: Stack) => {
  const instance = await stackInstanceOf(stack);
  return {
    instance,
    mark: (kind: string, name: string) => `pulumi/${PROJECT}/${stack.name}/${instance}/${kind}/${name}`,
  };
};
/** The program's resources besides the stack: its StackIdentity, a channel, a monitor and a status page. */
const ALL = 5;

describe("marked creates through the real engine", () => {
  const s = useServer();
  const engine = useEngine();
  let program: ReturnType<typeof programCopy>;
  const stacks: Record<string, Stack> = {};

  const liveMonitors = async () =>
    (await s.call("GET", "/api/v1/monitors")).body.data as {
      id: string;
      name: string;
      external_id: string | null;
      interval_sec: number;
    }[];
  type Outputs = { monitorId: string; monitorUrn: string; channelId: string; statusPageId: string };
  /** The outputs `up` returned (a `stack.outputs()` would be two more CLI runs). */
  const up = async (stack: Stack) => outputValues((await stack.up()).outputs) as Outputs;
  /** The outputs of each stack's last `up`, by its name. */
  const deployed: Record<string, Outputs> = {};

  async function stackFor(
    name: string,
    on = { engine, workDir: program.workDir },
    slug = `marks-${name}`,
  ): Promise<Stack> {
    const stack = await on.engine.stack(on.workDir, name);
    await stack.setAllConfig({
      "uptime:baseUrl": { value: s.url },
      "uptime:apiKey": { value: s.key, secret: true },
      hookUrl: { value: `${s.url}/hooks/${name}`, secret: true },
      headerToken: { value: `token-${name}`, secret: true },
      slug: { value: slug },
    });
    stacks[on === undefined || on.engine === engine ? name : `${name} (second backend)`] = stack;
    return stack;
  }

  beforeAll(() => {
    program = programCopy("test/engine/programs/uptime");
  });
  // No destroy at the end: what the stacks made lives on the server, which closes after them.
  afterAll(() => program?.remove());

  it("two stacks with the same resource names get their own objects, each marked with its stack", async () => {
    const dev = await stackFor("dev");
    const prod = await stackFor("prod");
    const [a, b] = [await up(dev), await up(prod)];
    deployed.dev = a;
    expect(a.monitorId).not.toBe(b.monitorId);
    const byId = new Map((await liveMonitors()).map((m) => [m.id, m]));
    const [devMarks, prodMarks] = [await marksOf(dev), await marksOf(prod)];
    expect(byId.get(a.monitorId)?.external_id).toBe(devMarks.mark("Monitor", "api"));
    expect(byId.get(b.monitorId)?.external_id).toBe(prodMarks.mark("Monitor", "api"));
    expect((await s.call("GET", `/api/v1/channels/${a.channelId}`)).body.data.external_id).toBe(
      devMarks.mark("Channel", "ops"),
    );
    expect((await s.call("GET", `/api/v1/status-pages/${b.statusPageId}`)).body.data.external_id).toBe(
      prodMarks.mark("StatusPage", "public"),
    );
    expect((await dev.preview({ refresh: true })).changeSummary).toEqual({ same: ALL });
    await prod.destroy();
  });

  it("destroy, then up of the same program, creates new objects (the old keys no longer replay)", async () => {
    const dev = stacks.dev as Stack;
    const before = deployed.dev as Outputs;
    await dev.destroy();
    expect(await liveMonitors()).toEqual([]);
    const after = await up(dev);
    deployed.dev = after;
    expect(after.monitorId).not.toBe(before.monitorId);
    expect((await liveMonitors()).map((m) => m.id)).toEqual([after.monitorId]);
    expect((await dev.preview()).changeSummary).toEqual({ same: ALL });
  });

  it("a replacement by a type change is a new object and the old one is gone", async () => {
    const dev = stacks.dev as Stack;
    const second = deployed.dev as Outputs;
    await dev.setConfig("monitorType", { value: "keyword" });
    const third = await up(dev);
    expect(third.monitorId).not.toBe(second.monitorId);
    const live = await liveMonitors();
    expect(live.map((m) => m.id)).toEqual([third.monitorId]);
    // Deleted first, so the replacement carries the resource's mark.
    expect(live[0]?.external_id).toBe((await marksOf(dev)).mark("Monitor", "api"));
    expect((await s.call("GET", `/api/v1/status-pages/${third.statusPageId}`)).body.data.monitor_ids).toEqual([
      third.monitorId,
    ]);
    await dev.removeConfig("monitorType");
    await dev.destroy();
  });

  it("a create whose mark already exists takes that object over and updates it, without a duplicate", async () => {
    const late = await stackFor("late");
    // A run that got as far as the stack's identity (what `--target` of it alone does).
    const identity = `urn:pulumi:late::${PROJECT}::pulumi-nodejs:dynamic/uptime:StackIdentity::pulumi-uptime-stack`;
    await late.up({ target: [identity] });
    expect(await liveMonitors()).toEqual([]);
    const made = await s.call("POST", "/api/v1/monitors", {
      name: "left by a killed run",
      type: "http",
      url: "https://api.example.com/health",
      interval_sec: 900,
      external_id: (await marksOf(late)).mark("Monitor", "api"),
    });
    expect((await up(late)).monitorId).toBe(made.body.data.id);
    const live = await liveMonitors();
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ id: made.body.data.id, name: "api", interval_sec: 60 });
    expect((await late.preview({ refresh: true })).changeSummary).toEqual({ same: ALL });
    await late.destroy();
  });

  it("adopt takes over an object made elsewhere and leaves its mark as it was", async () => {
    const made = await postMonitor(s, { type: "http", url: "https://legacy.example.com", interval_sec: 300 });
    const adopting = await stackFor("adopting");
    await adopting.setConfig("adoptMonitor", { value: made.body.data.id });
    expect((await up(adopting)).monitorId).toBe(made.body.data.id);
    const live = await liveMonitors();
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ name: "api", interval_sec: 60, external_id: null });
    expect((await adopting.preview({ refresh: true })).changeSummary).toEqual({ same: ALL });
    await adopting.destroy();
  });

  it("two backends with stacks of the same project and stack names, on one API key, each get their own objects; destroying one leaves the other's", async () => {
    const second = await offlineEngine();
    const secondProgram = programCopy("test/engine/programs/uptime");
    try {
      // Two engineers' local `twin` stacks: the same program and inputs (but a status page's
      // slug, which the account holds once).
      const mine = await stackFor("twin", { engine, workDir: program.workDir }, "marks-twin-mine");
      const theirs = await stackFor("twin", { engine: second, workDir: secondProgram.workDir }, "marks-twin-theirs");
      const [a, b] = [await up(mine), await up(theirs)];
      expect(b.monitorId).not.toBe(a.monitorId);
      expect(b.channelId).not.toBe(a.channelId);
      const [myMarks, theirMarks] = [await marksOf(mine), await marksOf(theirs)];
      expect(theirMarks.instance).not.toBe(myMarks.instance);
      const byId = new Map((await liveMonitors()).map((m) => [m.id, m]));
      expect(byId.get(a.monitorId)?.external_id).toBe(myMarks.mark("Monitor", "api"));
      expect(byId.get(b.monitorId)?.external_id).toBe(theirMarks.mark("Monitor", "api"));

      await theirs.destroy();
      expect((await liveMonitors()).map((m) => m.id)).toEqual([a.monitorId]);
      expect((await s.call("GET", `/api/v1/channels/${a.channelId}`)).status).toBe(200);
      expect((await s.call("GET", `/api/v1/status-pages/${a.statusPageId}`)).status).toBe(200);
      expect((await mine.preview({ refresh: true })).changeSummary).toEqual({ same: ALL });
      await mine.destroy();
    } finally {
      second.dispose();
      secondProgram.remove();
    }
    // Two stacks' up and destroy, each from its own backend.
  }, 600_000);
});
