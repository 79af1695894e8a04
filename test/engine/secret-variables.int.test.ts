import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stateFiles, useServer, useStack } from "../support/engine-suite";
import { startTarget, type Target } from "../support/target";
import { driftCommand } from "./cli";

/** Quotes, a backslash, spaces, `&`, `%`, `+` and non-ASCII: every spelling differs. */
const PASSWORD = 'S3cr%t+ "pass" \\ wörd&1';
const BY_HAND = 'By-hand "value" & 2';
/** The secret of an `Authorization: Bearer …` header. */
const TOKEN = 't0k+en "with" \\ spaces&%=';
const HEADER_BY_HAND = 'Bearer h4nd "made" & 3';
/** A step's header value written as plain text in the program (test/engine/programs/secret-variables). */
const STEP_KEY = 'St3p-key "plain" & 4';

/** The spellings of `secret` a state file could hold it in. */
const spellings = (secret: string) => [
  secret,
  JSON.stringify(secret).slice(1, -1),
  encodeURIComponent(secret),
  Buffer.from(secret).toString("base64"),
  Buffer.from(secret).toString("base64").slice(0, 12),
];

describe("secret variables and headers are write-only, and drift still finds them changed", () => {
  const s = useServer();
  let target: Target;
  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(async () => {
    await target?.close();
  });
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/secret-variables",
    server: s,
    config: () => ({
      serviceUrl: { value: target.url },
      password: { value: PASSWORD, secret: true },
      token: { value: TOKEN, secret: true },
    }),
  });

  // The journey's variable and the API monitor's header, set up and checked once; then both changed
  // through the API in one round of drift, refresh and up (each assertion names its monitor).
  let ids: { journey: string; api: string };
  const written = { password: "", authorization: "" };

  it("up writes fingerprints of the secret variable and header, and a second preview, a refreshed one and drift find nothing", async () => {
    const up = await stack.up();
    ids = {
      journey: up.outputs.journey?.value as string,
      api: up.outputs.api?.value as string,
    };
    written.password = (await s.call("GET", `/api/v1/monitors/${ids.journey}`)).body.data.variables.password;
    expect(written.password).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    const read = (await s.call("GET", `/api/v1/monitors/${ids.api}`)).body.data;
    written.authorization = read.headers.authorization;
    expect(written.authorization).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(read.headers.accept).toBe("text/plain");
    // No perpetual diff: the read's fingerprint is the one the provider recorded.
    expect((await stack.preview()).changeSummary).toEqual({ same: 4 });
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({
      same: 4,
    });
    expect((await driftCommand(engine, program.workDir)).code).toBe(0);
  }, 600_000);

  it("a secret variable and a secret header changed through the API are drift, repaired by up; the check sends the program's value; no value in state", async () => {
    const variable = await s.call("PATCH", `/api/v1/monitors/${ids.journey}`, {
      variables: { password: BY_HAND },
    });
    expect(variable.status).toBe(200);
    expect(variable.body.data.variables.password, "journey's variable").not.toBe(written.password);
    const header = await s.call("PATCH", `/api/v1/monitors/${ids.api}`, {
      headers: { authorization: HEADER_BY_HAND, accept: "text/plain" },
    });
    expect(header.status).toBe(200);
    expect(header.body.data.headers.authorization, "api's header").not.toBe(written.authorization);
    const { code, report } = await driftCommand(engine, program.workDir);
    expect(code, JSON.stringify(report)).toBe(2);
    expect(report.resources.map((r) => [r.name, r.action]).sort()).toEqual([
      ["api", "update"],
      ["journey", "update"],
    ]);
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({
      same: 2,
      update: 2,
    });

    await stack.refresh();
    expect((await stack.up()).summary.resourceChanges).toEqual({
      same: 2,
      update: 2,
    });
    // The program's values are back: their fingerprints are the first ones again.
    expect((await s.call("GET", `/api/v1/monitors/${ids.journey}`)).body.data.variables.password).toBe(
      written.password,
    );
    expect((await s.call("GET", `/api/v1/monitors/${ids.api}`)).body.data.headers.authorization).toBe(
      written.authorization,
    );
    expect((await stack.preview({ refresh: true })).changeSummary).toEqual({
      same: 4,
    });
    // The check sends the program's value, not a fingerprint.
    target.received = {};
    const run = await s.call("POST", `/api/v1/monitors/${ids.api}/test`);
    expect(run.body.data.status, JSON.stringify(run.body)).toBe("up");
    expect(target.received.authorization).toBe(`Bearer ${TOKEN}`);

    // The state as the backend keeps it on disk (an export would decrypt its secrets).
    const state = stateFiles(engine);
    expect(state).toContain(ids.journey);
    expect(state).toContain(ids.api);
    const secrets = [PASSWORD, BY_HAND, STEP_KEY, TOKEN, `Bearer ${TOKEN}`, HEADER_BY_HAND];
    for (const secret of [...secrets, HEADER_BY_HAND.slice("Bearer ".length)])
      for (const spelled of spellings(secret)) expect(state, spelled).not.toContain(spelled);
  }, 600_000);
});
