/**
 * The killed-run scenario with `PULUMI_SKIP_CHECKPOINTS=true`: the engine writes the state only
 * when a command ends, so a killed run leaves the state as it was before that run. SIGKILL to the
 * CLI and its plugins during creates, updates, replacements and deletes, then the README's
 * recovery; counts duplicates, orphans, lost updates and objects left undeleted.
 */
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { serverMonitors, useServer, useStack } from "../support/engine-suite";
import { pulumiKilledWhen, stateResources } from "./killed-up";

const SKIP = { PULUMI_SKIP_CHECKPOINTS: "true" };
const PROJECT = "uptime-fleet";
const IDENTITY_URN = `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/uptime:StackIdentity::pulumi-uptime-stack`;

type LiveMonitor = { id: string; name: string; type: string; interval_sec: number; external_id: string | null };

/** The figures of one killed run after its recovery; every count but `atKill` must be 0. */
export type PhaseFigures = {
  phase: string;
  atKill: number;
  duplicates: number;
  orphans: number;
  lost: number;
  undeleted: number;
};

/**
 * `rounds` rounds of four killed runs (create, update-all, replace-all, destroy), each followed by
 * the README's recovery, on a stack whose every command skips checkpoints.
 */
export function describeKilledUpSkippingCheckpoints(
  title: string,
  options: { monitors: number; rounds: number; timeoutMs: number },
): void {
  const N = options.monitors;
  describe(title, () => {
    const s = useServer();
    const live = serverMonitors<LiveMonitor>(s);
    const { stack, engine, program } = useStack({
      program: "test/engine/programs/fleet",
      engine: { env: SKIP },
      server: s,
      config: () => ({ monitors: { value: String(N) } }),
    });
    const stateIds = async () =>
      new Set((await stateResources(stack)).filter((r) => r.type.endsWith("uptime:Monitor")).map((r) => r.id));

    /** Runs `pulumi <command>` as CI would, and kills it and its plugins once `reached()` holds. */
    const killedWhen = (command: "up" | "destroy", reached: () => Promise<boolean>) =>
      pulumiKilledWhen(engine, program.workDir, [command], reached, { settleMs: 300 });

    /** The README's recovery, with checkpoints still skipped: cancel, refresh, then the command again. */
    async function recover(command: "up" | "destroy"): Promise<void> {
      await stack.cancel();
      await stack.refresh({ clearPendingCreates: true });
      const result = command === "up" ? await stack.up() : await stack.destroy();
      expect(result.summary.result).toBe("succeeded");
    }

    /** Duplicates, orphans, and monitors that do not match `wanted` (lost updates). */
    async function count(phase: string, atKill: number, wanted: (m: LiveMonitor) => boolean): Promise<PhaseFigures> {
      const monitors = await live();
      const ids = await stateIds();
      const figures = {
        phase,
        atKill,
        duplicates: monitors.length - new Set(monitors.map((m) => m.name)).size,
        orphans: monitors.filter((m) => !ids.has(m.id)).length,
        lost: N - monitors.filter(wanted).length,
        undeleted: 0,
      };
      if (figures.lost === 0) expect((await stack.preview()).changeSummary).toEqual({ same: N + 2 });
      return figures;
    }

    const target = () => Math.floor(N / 4) + Math.floor(Math.random() * (N / 2));

    /** One run killed during `phase`, recovered, counted. */
    async function phase(
      name: string,
      config: Record<string, string | undefined>,
      reached: (k: number) => Promise<boolean>,
      wanted: (m: LiveMonitor) => boolean,
    ) {
      for (const [key, value] of Object.entries(config)) {
        if (value === undefined) await stack.removeConfig(key);
        else await stack.setConfig(key, { value });
      }
      const k = target();
      await killedWhen("up", () => reached(k));
      const atKill = (await live()).filter(wanted).length;
      await recover("up");
      return count(name, atKill, wanted);
    }

    it(
      "a first up that skips checkpoints stops before it creates anything, and says how to go on",
      async () => {
        await killedWhen("up", async () => (await live()).length >= N / 4);
        await stack.cancel();
        const first = await stack.up().then(
          () => "succeeded",
          (err: Error) => String(err),
        );
        const names = (await live()).map((m) => m.name);
        console.log(
          `first up: ${first.slice(0, 300)}; live ${names.length}, duplicates ${names.length - new Set(names).size}`,
        );
        expect(first).toContain("PULUMI_SKIP_CHECKPOINTS");
        expect(first).toContain(IDENTITY_URN);
        expect(await live()).toEqual([]);
      },
      options.timeoutMs,
    );

    it(
      `leaves 0 duplicates, orphans, lost updates and undeleted objects over ${options.rounds} round(s) of killed runs`,
      async () => {
        const figures: PhaseFigures[] = [];
        for (let round = 1; round <= options.rounds; round++) {
          // The README's first step: the stack instance, written with a checkpoint.
          const env = (stack.workspace as LocalWorkspace).envVars;
          env.PULUMI_SKIP_CHECKPOINTS = "false";
          await stack.up({ target: [IDENTITY_URN] });
          env.PULUMI_SKIP_CHECKPOINTS = "true";
          const made = async (k: number) => (await live()).length >= k;
          figures.push(await phase("create", {}, made, (m) => m.interval_sec === 60));
          const updated = async (k: number) => (await live()).filter((m) => m.interval_sec === 120).length >= k;
          figures.push(await phase("update", { intervalSec: "120" }, updated, (m) => m.interval_sec === 120));
          const replaced = async (k: number) => (await live()).filter((m) => m.type === "keyword").length >= k;
          figures.push(
            await phase("replace", { keyword: "ok" }, replaced, (m) => m.type === "keyword" && m.interval_sec === 120),
          );
          const k = target();
          await killedWhen("destroy", async () => (await live()).length <= N - k);
          const atKill = N - (await live()).length;
          await recover("destroy");
          figures.push({
            phase: "destroy",
            atKill,
            duplicates: 0,
            orphans: 0,
            lost: 0,
            undeleted: (await live()).length,
          });
          await stack.removeConfig("intervalSec");
          await stack.removeConfig("keyword");
          for (const f of figures.slice(-4)) console.log(`round ${round}: ${JSON.stringify(f)}`);
        }
        console.table(figures);
        const bad = figures.filter((f) => f.duplicates + f.orphans + f.lost + f.undeleted > 0);
        expect(bad).toEqual([]);
      },
      options.timeoutMs,
    );
  });
}
