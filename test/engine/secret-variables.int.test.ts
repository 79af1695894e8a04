import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OfflineEngine, offlineEngine } from "../../scripts/pulumi-engine";
import { startServer, type TestServer } from "../support/server";
import { startTarget, type Target } from "../support/target";
import { driftCommand } from "./cli";
import { programCopy } from "./programs";

/** Quotes, a backslash, spaces, `&`, `%`, `+` and non-ASCII: every spelling differs. */
const PASSWORD = 'S3cr%t+ "pass" \\ wörd&1';
const BY_HAND = 'By-hand "value" & 2';
/** The secret of an `Authorization: Bearer …` header. */
const TOKEN = 't0k+en "with" \\ spaces&%=';
const HEADER_BY_HAND = 'Bearer h4nd "made" & 3';
/** A step's header value written as plain text in the program (test/engine/programs/secret-variables). */
const STEP_KEY = 'St3p-key "plain" & 4';

/** Every file under `dir`, as one text. */
function stateFiles(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

/** The spellings of `secret` a state file could hold it in. */
const spellings = (secret: string) => [
  secret,
  JSON.stringify(secret).slice(1, -1),
  encodeURIComponent(secret),
  Buffer.from(secret).toString("base64"),
  Buffer.from(secret).toString("base64").slice(0, 12),
];

describe("secret variables and headers are write-only, and drift still finds them changed", () => {
  let s: TestServer;
  let target: Target;
  let engine: OfflineEngine;
  let stack: Stack;
  let program: { workDir: string; remove: () => void };

  beforeAll(async () => {
    s = await startServer();
    target = await startTarget();
    engine = await offlineEngine();
    program = programCopy("test/engine/programs/secret-variables");
    stack = await engine.stack(program.workDir, "dev");
    await stack.setAllConfig({
      "uptime:baseUrl": { value: s.url },
      "uptime:apiKey": { value: s.key, secret: true },
      serviceUrl: { value: target.url },
      password: { value: PASSWORD, secret: true },
      token: { value: TOKEN, secret: true },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    engine?.dispose();
    program?.remove();
    await s?.close();
    await target?.close();
  });

  it("up, a clean second preview, a change through the API found by drift and refresh, repaired by up; no value in state", async () => {
    await stack.up();
    const id = (await stack.outputs()).journey?.value as string;
    const written = (await s.call("GET", `/api/v1/monitors/${id}`)).body.data.variables.password as string;
    expect(written).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    // No perpetual diff: the read's fingerprint is the one the provider recorded.
    expect((await stack.preview()).changeSummary).toEqual({ same: 4 });
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 4 });
    expect((await driftCommand(engine, program.workDir)).code).toBe(0);

    const patched = await s.call("PATCH", `/api/v1/monitors/${id}`, { variables: { password: BY_HAND } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.variables.password).not.toBe(written);
    const { code, report } = await driftCommand(engine, program.workDir);
    expect(code, JSON.stringify(report)).toBe(2);
    expect(report.resources.map((r) => [r.name, r.action])).toEqual([["journey", "update"]]);
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 3, update: 1 });

    await stack.refresh();
    const repaired = await stack.up();
    expect(repaired.summary.resourceChanges).toEqual({ same: 3, update: 1 });
    // The program's value is back: its fingerprint is the first one again.
    expect((await s.call("GET", `/api/v1/monitors/${id}`)).body.data.variables.password).toBe(written);
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 4 });

    // The state as the backend keeps it on disk (an export would decrypt its secrets).
    const state = stateFiles(join(engine.stateDir, "backend"));
    expect(state).toContain(id);
    for (const secret of [PASSWORD, BY_HAND, STEP_KEY])
      for (const spelled of spellings(secret)) expect(state).not.toContain(spelled);
  }, 600_000);
  it("a secret header changed through the API is drift, repaired by up; the check sends the program's value; no value in state", async () => {
    const id = (await stack.outputs()).api?.value as string;
    const read = (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
    const written = read.headers.authorization as string;
    expect(written).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(read.headers.accept).toBe("text/plain");
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 4 });

    const patched = await s.call("PATCH", `/api/v1/monitors/${id}`, {
      headers: { authorization: HEADER_BY_HAND, accept: "text/plain" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.headers.authorization).not.toBe(written);
    const { code, report } = await driftCommand(engine, program.workDir);
    expect(code, JSON.stringify(report)).toBe(2);
    expect(report.resources.map((r) => [r.name, r.action])).toEqual([["api", "update"]]);
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 3, update: 1 });

    await stack.refresh();
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: 3, update: 1 });
    expect((await s.call("GET", `/api/v1/monitors/${id}`)).body.data.headers.authorization).toBe(written);
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({ same: 4 });
    // The check sends the program's value, not a fingerprint.
    target.received = {};
    const run = await s.call("POST", `/api/v1/monitors/${id}/test`);
    expect(run.body.data.status, JSON.stringify(run.body)).toBe("up");
    expect(target.received.authorization).toBe(`Bearer ${TOKEN}`);

    const state = stateFiles(join(engine.stateDir, "backend"));
    expect(state).toContain(id);
    for (const secret of [TOKEN, `Bearer ${TOKEN}`, HEADER_BY_HAND, HEADER_BY_HAND.slice("Bearer ".length)])
      for (const spelled of spellings(secret)) expect(state, spelled).not.toContain(spelled);
  }, 600_000);
});
