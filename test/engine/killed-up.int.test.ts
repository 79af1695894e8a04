import { execFile, spawn } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrphanReport } from "../../provider/commands/orphans";
import { type OfflineEngine, offlineEngine, REPO_ROOT } from "../../scripts/pulumi-engine";
import { killTree } from "../support/process-tree";
import { startServer, type TestServer } from "../support/server";
import { programCopy } from "./programs";

const MONITORS = 40;
const ROUNDS = 3;

/** Runs `pulumi-uptime orphans --json` as a user's pipeline would: a separate process. */
export function orphansCommand(engine: OfflineEngine, workDir: string): Promise<{ code: number; report: OrphanReport }> {
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

describe("a pulumi up killed with SIGKILL during creates", () => {
  let s: TestServer;
  let engine: OfflineEngine;
  let stack: Stack;
  let program: { workDir: string; remove: () => void };
  let accountId: string;

  const liveMonitors = () => s.app.store.monitors.list(accountId, { limit: 1000 }).items;
  const stateIds = async () => {
    const deployment = (await stack.exportStack()).deployment as { resources?: { id?: string; type: string }[] };
    return new Set((deployment.resources ?? []).filter((r) => r.type.endsWith("uptime:Monitor")).map((r) => r.id));
  };

  beforeAll(async () => {
    s = await startServer();
    accountId = s.app.store.keys.authenticate(s.key)?.accountId as string;
    engine = await offlineEngine();
    program = programCopy("test/engine/programs/fleet");
    stack = await engine.stack(program.workDir, "dev");
    await stack.setAllConfig({
      "uptime:baseUrl": { value: s.url },
      "uptime:apiKey": { value: s.key, secret: true },
      monitors: { value: String(MONITORS) },
    });
  });

  afterAll(async () => {
    await stack?.cancel().catch(() => undefined);
    await stack?.destroy().catch(() => undefined);
    await stack?.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    engine?.dispose();
    program?.remove();
    await s?.close();
  });

  /**
   * The file backend writes the stack's `.json.attrs` sidecar (content type and MD5 only) in
   * place: a kill in the middle leaves it empty, and every command then fails with "failed to
   * load checkpoint: EOF". The README's recovery deletes an empty sidecar; returns how many.
   */
  const removeEmptySidecars = (): number => {
    const stacks = join(engine.stateDir, "backend", ".pulumi", "stacks");
    const empty = readdirSync(stacks, { recursive: true, encoding: "utf8" })
      .map((f) => join(stacks, f))
      .filter((f) => f.endsWith(".json.attrs") && statSync(f).size === 0);
    for (const f of empty) rmSync(f);
    return empty.length;
  };

  /** Starts `pulumi up` as CI would, and kills it and its plugins once `target` monitors exist. */
  async function upKilledAt(target: number): Promise<number> {
    const cli = spawn(join(engine.binDir, "pulumi"), ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "dev"], {
      cwd: program.workDir,
      env: { ...process.env, ...engine.envVars },
      detached: true,
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    const deadline = Date.now() + 90_000;
    while (liveMonitors().length < target && cli.exitCode === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    killTree(cli.pid as number);
    await exited;
    return liveMonitors().length;
  }

  it(`leaves 0 duplicates and 0 orphans after cancel, refresh and up, over ${ROUNDS} rounds`, async () => {
    const figures: Record<string, number>[] = [];
    const started = performance.now();
    for (let round = 1; round <= ROUNDS; round++) {
      const target = Math.floor(MONITORS / 4) + Math.floor(Math.random() * (MONITORS / 6));
      const atKill = await upKilledAt(target);
      // Settle: a request in flight at the kill may still land on the server.
      await new Promise((r) => setTimeout(r, 300));
      const afterKill = liveMonitors().length;
      const loadFailed = await stack.exportStack().then(
        () => false,
        (err: Error) => {
          // Only the one known way a kill breaks the file backend is recovered; anything else fails.
          expect(String(err)).toContain("failed to load checkpoint: EOF");
          return true;
        },
      );
      const emptySidecars = loadFailed ? removeEmptySidecars() : 0;
      if (loadFailed) expect(emptySidecars).toBeGreaterThan(0);
      const inStateAfterKill = (await stateIds()).size;

      // What a user does after a cancelled job (README, "Recovering from an interrupted pulumi up").
      await stack.cancel();
      await stack.refresh({ clearPendingCreates: true });
      const up = await stack.up();
      expect(up.summary.result).toBe("succeeded");

      const live = liveMonitors();
      const ids = await stateIds();
      const duplicates = live.length - new Set(live.map((m) => m.name)).size;
      const orphans = live.filter((m) => !ids.has(m.id)).length;
      const figure = { round, target, atKill, afterKill, emptySidecars, inStateAfterKill, live: live.length, inState: ids.size, duplicates, orphans };
      figures.push(figure);
      console.log(`round ${round}: ${JSON.stringify(figure)} at ${Math.round((performance.now() - started) / 1000)} s`);
      expect({ duplicates, orphans, live: live.length, inState: ids.size }).toEqual({ duplicates: 0, orphans: 0, live: MONITORS, inState: MONITORS });
      expect((await stack.preview()).changeSummary).toEqual({ same: MONITORS + 1 });

      const command = await orphansCommand(engine, program.workDir);
      expect(command).toMatchObject({ code: 0, report: { orphans: [] } });
      if (round === ROUNDS) {
        // A marked object the state does not hold is reported, with exit code 2.
        const stray = await s.call("POST", "/api/v1/monitors", {
          name: "stray",
          type: "http",
          url: "https://stray.example.com",
          interval_sec: 60,
          external_id: "pulumi/uptime-fleet/dev/Monitor/stray",
        });
        const found = await orphansCommand(engine, program.workDir);
        expect(found.code).toBe(2);
        expect(found.report.orphans).toEqual([expect.objectContaining({ kind: "Monitor", id: stray.body.data.id })]);
        await s.call("DELETE", `/api/v1/monitors/${stray.body.data.id}`);
      }
      // The next round starts from nothing: destroy, then the same program again.
      await stack.destroy();
      expect(liveMonitors()).toEqual([]);
    }
    console.table(figures);
    // Three rounds take about 90 s on an idle machine; the limit leaves room for a loaded one.
  }, 420_000);
});
