/**
 * The killed-`pulumi up` scenario, for any program that declares `monitors` monitors named
 * `site-<i>`: SIGKILL to the CLI and its plugins while creates are in flight, then what the
 * README tells a user to do (cancel, refresh with `--clear-pending-creates`, up), over rounds.
 */
import { execFile, spawn } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import type { OrphanReport } from "../../provider/commands/orphans";
import { type OfflineEngine, REPO_ROOT } from "../../scripts/pulumi-engine";
import { serverMonitors, type StackOptions, useServer, useStack } from "../support/engine-suite";
import { killTree } from "../support/process-tree";

/** Runs `pulumi-uptime orphans --json` as a user's pipeline would: a separate process. */
export function orphansCommand(
  engine: OfflineEngine,
  workDir: string,
): Promise<{ code: number; report: OrphanReport }> {
  return new Promise((resolve, reject) => {
    execFile(
      join(REPO_ROOT, "node_modules/.bin/node"),
      [join(REPO_ROOT, "dist/provider/commands/cli.js"), "orphans", "--stack", "dev", "--cwd", workDir, "--json"],
      { env: { ...process.env, ...engine.envVars }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? Number((err as { code?: number }).code ?? 1) : 0;
        try {
          resolve({ code, report: JSON.parse(stdout) as OrphanReport });
        } catch {
          reject(new Error(`orphans exited ${code}: ${stderr}`));
        }
      },
    );
  });
}

type StateResource = { id?: string; type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };

/** The stack's resources as its state holds them. */
export async function stateResources(stack: Stack): Promise<StateResource[]> {
  return ((await stack.exportStack()).deployment as { resources?: StateResource[] }).resources ?? [];
}

/** The stack instance its state holds: the StackIdentity resource's, or the native provider's. */
export async function stackInstanceOf(stack: Stack): Promise<string> {
  const resources = await stateResources(stack);
  const identity = resources.find((r) => r.type.endsWith("uptime:StackIdentity"))?.outputs?.instance;
  const provider = resources.find((r) => r.type === "pulumi:providers:uptime")?.inputs?.stackInstance;
  const instance = identity ?? provider;
  expect(instance).toMatch(/^[0-9a-f]{16}$/);
  return instance as string;
}

/**
 * Runs `pulumi <args> --yes --skip-preview --non-interactive --stack dev` as CI would (a process
 * group of its own), and kills it and its plugins with SIGKILL once `reached()` holds, it exits,
 * or `deadlineMs` passes; then waits `settleMs` (a request in flight at the kill may still land).
 */
export async function pulumiKilledWhen(
  engine: OfflineEngine,
  workDir: string,
  args: string[],
  reached: () => Promise<boolean>,
  options: { deadlineMs?: number; pollMs?: number; settleMs?: number } = {},
): Promise<void> {
  const cli = spawn(
    join(engine.binDir, "pulumi"),
    [...args, "--yes", "--skip-preview", "--non-interactive", "--stack", "dev"],
    { cwd: workDir, env: { ...process.env, ...engine.envVars }, detached: true, stdio: "ignore" },
  );
  const exited = new Promise((resolve) => cli.once("exit", resolve));
  const deadline = Date.now() + (options.deadlineMs ?? 120_000);
  while (!(await reached()) && cli.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, options.pollMs ?? 10));
  killTree(cli.pid as number);
  await exited;
  if (options.settleMs) await new Promise((r) => setTimeout(r, options.settleMs));
}

/**
 * The file backend writes the stack's `.json.attrs` sidecar (content type and MD5 only) in
 * place: a kill in the middle leaves it empty, and every command then fails with "failed to
 * load checkpoint: EOF". The README's recovery deletes an empty sidecar; returns how many.
 */
export function removeEmptySidecars(engine: OfflineEngine): number {
  const stacks = join(engine.stateDir, "backend", ".pulumi", "stacks");
  const empty = readdirSync(stacks, { recursive: true, encoding: "utf8" })
    .map((f) => join(stacks, f))
    .filter((f) => f.endsWith(".json.attrs") && statSync(f).size === 0);
  for (const f of empty) rmSync(f);
  return empty.length;
}

/** What a scenario runs on, besides its size. */
export interface KilledUpOptions {
  monitors: number;
  rounds: number;
  timeoutMs: number;
  /** The program (declaring `monitors` monitors `site-<i>`) and its engine, as `useStack` takes them. */
  program: Pick<StackOptions, "program" | "native">;
  /** The program's project name, as its marks carry it. */
  project: string;
  /** What a preview's summary counts besides the monitors: the stack, its StackIdentity. */
  others: number;
}

/**
 * `rounds` rounds of: `pulumi up` killed once some monitors exist, recovery, and checks that the
 * server holds each monitor once, marked with the stack, every one in the state.
 */
export function describeKilledUp(title: string, options: KilledUpOptions): void {
  const { monitors: MONITORS, rounds: ROUNDS } = options;
  describe(title, () => {
    const s = useServer();
    const liveMonitors = serverMonitors(s);
    const { stack, engine, program } = useStack({
      ...options.program,
      server: s,
      config: () => ({ monitors: { value: String(MONITORS) } }),
    });
    const rig = { engine, project: options.project, others: options.others };

    const stateIds = async () =>
      new Set((await stateResources(stack)).filter((r) => /uptime:(index:)?Monitor$/.test(r.type)).map((r) => r.id));

    /** Starts `pulumi up` as CI would, and kills it and its plugins once `target` monitors exist. */
    async function upKilledAt(target: number): Promise<number> {
      await pulumiKilledWhen(rig.engine, program.workDir, ["up"], async () => (await liveMonitors()).length >= target, {
        deadlineMs: 90_000,
      });
      return (await liveMonitors()).length;
    }

    /** Recovers as the README says; returns the figures of the kill. */
    async function recover(): Promise<{ emptySidecars: number; inStateAfterKill: number }> {
      const loadFailed = await stack.exportStack().then(
        () => false,
        (err: Error) => {
          // Only the one known way a kill breaks the file backend is recovered; anything else fails.
          expect(String(err)).toContain("failed to load checkpoint: EOF");
          return true;
        },
      );
      const emptySidecars = loadFailed ? removeEmptySidecars(rig.engine) : 0;
      if (loadFailed) expect(emptySidecars).toBeGreaterThan(0);
      const inStateAfterKill = (await stateIds()).size;
      await stack.cancel();
      await stack.refresh({ clearPendingCreates: true });
      return { emptySidecars, inStateAfterKill };
    }

    /** Marked objects the state does not hold are reported (exit 2); another instance's are not. */
    async function expectStraysReported(): Promise<void> {
      const instance = await stackInstanceOf(stack);
      const site = (await liveMonitors())[0]?.id;
      const monitor = { type: "http", url: "https://stray.example.com", interval_sec: 60 };
      const post = async (path: string, body: object) => (await s.call("POST", path, body)).body.data.id as string;
      const ours = [
        [
          "Monitor",
          await post("/api/v1/monitors", {
            ...monitor,
            name: "stray",
            external_id: `pulumi/${rig.project}/dev/${instance}/Monitor/stray`,
          }),
        ],
        [
          "Monitor",
          await post("/api/v1/monitors", {
            ...monitor,
            name: "legacy",
            external_id: `pulumi/${rig.project}/dev/Monitor/legacy`,
          }),
        ],
        [
          "MaintenanceWindow",
          await post("/api/v1/maintenance-windows", {
            name: "stray",
            monitor_ids: [site],
            starts_at: "2030-01-01T00:00:00Z",
            ends_at: "2030-01-01T01:00:00Z",
            external_id: `pulumi/${rig.project}/dev/${instance}/MaintenanceWindow/stray`,
          }),
        ],
      ] as const;
      // Another backend's stack of the same names.
      const theirs = await post("/api/v1/monitors", {
        ...monitor,
        name: "theirs",
        external_id: `pulumi/${rig.project}/dev/0000000000000000/Monitor/stray`,
      });
      const found = await orphansCommand(engine, program.workDir);
      expect(found.code).toBe(2);
      expect(found.report.orphans.map((o) => [o.kind, o.id]).sort()).toEqual(ours.map(([k, id]) => [k, id]).sort());
      await s.call("DELETE", `/api/v1/maintenance-windows/${ours[2][1]}`);
      for (const id of [ours[0][1], ours[1][1], theirs]) await s.call("DELETE", `/api/v1/monitors/${id}`);
    }

    it(
      `leaves 0 duplicates and 0 orphans after cancel, refresh and up, over ${ROUNDS} rounds`,
      async () => {
        const figures: Record<string, number>[] = [];
        const started = performance.now();
        for (let round = 1; round <= ROUNDS; round++) {
          const target = Math.floor(MONITORS / 4) + Math.floor(Math.random() * (MONITORS / 6));
          const atKill = await upKilledAt(target);
          // Settle: a request in flight at the kill may still land on the server.
          await new Promise((r) => setTimeout(r, 300));
          const afterKill = (await liveMonitors()).length;
          const recovered = await recover();
          const up = await stack.up();
          expect(up.summary.result).toBe("succeeded");

          const live = await liveMonitors();
          const ids = await stateIds();
          const duplicates = live.length - new Set(live.map((m) => m.name)).size;
          const orphans = live.filter((m) => !ids.has(m.id)).length;
          const figure = {
            round,
            target,
            atKill,
            afterKill,
            ...recovered,
            live: live.length,
            inState: ids.size,
            duplicates,
            orphans,
          };
          figures.push(figure);
          console.log(
            `round ${round}: ${JSON.stringify(figure)} at ${Math.round((performance.now() - started) / 1000)} s`,
          );
          expect({ duplicates, orphans, live: live.length, inState: ids.size }).toEqual({
            duplicates: 0,
            orphans: 0,
            live: MONITORS,
            inState: MONITORS,
          });
          // Every object carries the stack's mark, with the instance its state holds.
          const instance = await stackInstanceOf(stack);
          expect(live.map((m) => m.external_id).sort()).toEqual(
            live.map((m) => `pulumi/${rig.project}/dev/${instance}/Monitor/${m.name}`).sort(),
          );
          expect((await stack.preview()).changeSummary).toEqual({ same: MONITORS + rig.others });

          expect(await orphansCommand(engine, program.workDir)).toMatchObject({ code: 0, report: { orphans: [] } });
          if (round === ROUNDS) await expectStraysReported();
          // The next round starts from nothing: destroy, then the same program again.
          await stack.destroy();
          expect(await liveMonitors()).toEqual([]);
        }
        console.table(figures);
      },
      options.timeoutMs,
    );
  });
}
