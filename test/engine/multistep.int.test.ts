import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { refusedPreview, useServer, useStack, useTarget } from "../support/engine-suite";
import { startJourneyService } from "../support/journey-service";
import { eventually } from "../support/target";

/** Every file under `dir`, as one text. */
function stateFiles(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

describe("a multi-step monitor deployed by the engine", () => {
  const serverLog: string[] = [];
  const pulumiOutput: string[] = [];
  const onOutput = (line: string) => pulumiOutput.push(line);

  const stream = new Writable({ write: (chunk, _enc, done) => (serverLog.push(String(chunk)), done()) });
  const s = useServer({ checker: true, minIntervalSec: 1, logger: { level: "debug", stream } as never });
  const svc = useTarget(() => startJourneyService());
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/multistep",
    server: s,
    config: () => ({ serviceUrl: { value: svc.url }, password: { value: svc.password, secret: true } }),
  });

  const heartbeats = async (id: string) =>
    (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[];

  it("a step using an unknown {{variable}} fails the preview, naming the step and the variable", async () => {
    expect(await refusedPreview(stack, s, { typo: { value: "true" } }, { onOutput })).toMatch(
      /steps\[2\]\.url: step "read" uses \{\{itemid\}\}, which neither variables nor an earlier step's extract defines/,
    );
  }, 300_000);

  it("deploys a 4-step journey that passes; a broken step 3 is named with its assertion, the clean-up still runs, and no secret shows anywhere", async () => {
    const up = await stack.up({ onOutput });
    const id = up.outputs.journey?.value as string;
    const live = (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
    expect(live.steps.map((st: { name: string }) => st.name)).toEqual(["log in", "create", "read", "delete"]);
    expect(live.retry).toEqual({
      strategy: "linear",
      delay: 100,
      retries: 2,
      duration: 60,
      trigger: "network",
      location: "same",
    });
    const passed = await eventually(async () => (await heartbeats(id)).find((hb) => hb.status === "up"));
    expect((passed.steps as { status: string }[]).map((st) => st.status)).toEqual([
      "passed",
      "passed",
      "passed",
      "passed",
    ]);

    svc.brokenRead = true;
    const deletedBefore = svc.deleted.length;
    // A resumed monitor is checked at once: no wait for the next of its 30 s.
    await s.call("POST", `/api/v1/monitors/${id}/pause`);
    await s.call("POST", `/api/v1/monitors/${id}/resume`);
    const down = await eventually(async () => (await heartbeats(id)).find((hb) => hb.status === "down"));
    expect(down.error).toBe(
      'step 3 "read": 1 of 1 assertions failed: json_body $.name equals "probe item": found nothing',
    );
    expect(down.attempts).toBeUndefined();
    const steps = down.steps as { name: string; status: string }[];
    expect(steps.map((st) => `${st.name}: ${st.status}`)).toEqual([
      "log in: passed",
      "create: passed",
      "read: failed",
      "delete: passed",
    ]);
    expect(svc.deleted.length).toBeGreaterThan(deletedBefore);

    // `pulumi-uptime test`: a line per step under the monitor's.
    const text = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const cli = join(REPO_ROOT, "dist/provider/commands/cli.js");
      execFile(
        join(REPO_ROOT, "node_modules/.bin/node"),
        [cli, "test", "--stack", "dev", "--cwd", program.workDir],
        { env: { ...process.env, ...engine.envVars }, timeout: 150_000 },
        (err, stdout) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
    pulumiOutput.push(text.stdout);
    expect(text.code, text.stdout).toBe(2);
    expect(text.stdout).toMatch(
      /^journey\s+http:\/\/127\.0\.0\.1:\d+\/login\s+fail\s+step 3 "read": 1 of 1 assertions failed/m,
    );
    expect(text.stdout).toMatch(/^ {2}1\. log in\s+pass\s+-\s+\d+ ms$/m);
    expect(text.stdout).toMatch(
      /^ {2}3\. read\s+fail\s+1 of 1 assertions failed: json_body \$\.name equals "probe item": found nothing\s+\d+ ms$/m,
    );
    expect(text.stdout).toMatch(/^ {2}4\. delete\s+pass\s+-\s+\d+ ms$/m);

    // A refresh finds no drift: the steps as the program wrote them are what the service stores.
    const refreshed = await stack.preview({ refresh: true, onOutput } as never);
    expect(refreshed.changeSummary).toEqual({ same: 3 });

    // The state as the backend keeps it on disk (an export would decrypt its secrets).
    const state = stateFiles(join(engine.stateDir, "backend"));
    const all = await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`);
    expect(svc.tokens.length).toBeGreaterThan(1);
    for (const secret of [svc.password, ...svc.tokens]) {
      for (const [where, text] of Object.entries({
        heartbeats: JSON.stringify(all.body),
        serverLog: serverLog.join(""),
        pulumi: pulumiOutput.join(""),
        state,
      })) {
        const at = text.indexOf(secret);
        expect(
          at,
          `${where} shows ${secret === svc.password ? "the password" : "a token"}: …${text.slice(Math.max(0, at - 300), at + 60)}`,
        ).toBe(-1);
      }
    }
    expect(pulumiOutput.join("").length).toBeGreaterThan(0);
    expect(state).toContain('"steps"');
    svc.brokenRead = false;
  }, 400_000);
});
