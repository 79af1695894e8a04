import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer, postMonitor } from "../../support/server";
import { eventually } from "../../support/target";
import { journeySteps, type JourneyService, startJourneyService } from "../../support/journey-service";

describe("multi-step monitors", () => {
  let dir: string;
  let s: TestServer;
  let svc: JourneyService;
  const logLines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "multistep-"));
    const stream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    s = await startServer({
      db: join(dir, "u.db"),
      checker: true,
      minIntervalSec: 1,
      logger: { level: "debug", stream } as never,
    });
    svc = await startJourneyService();
  });
  afterAll(async () => {
    await s?.close();
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (body: Record<string, unknown>) =>
    s.call("POST", "/api/v1/monitors", {
      name: "journey",
      type: "multistep",
      interval_sec: 2,
      timeout_sec: 1,
      variables: { password: svc.password },
      steps: journeySteps(svc.url),
      ...body,
    });
  const heartbeats = async (id: string) =>
    (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[];

  it("runs a 4-step journey with variables passed between steps; a broken step 3 names itself and its assertion, and the clean-up still runs", async () => {
    const res = await create({});
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const m = res.body.data;
    expect(m.steps).toHaveLength(4);
    expect(m.steps[2]).toMatchObject({
      name: "read",
      method: "GET",
      statuses: ["2xx", "3xx"],
      cleanup: false,
      extract: [],
    });
    const [up] = await eventually(async () => {
      const hbs = await heartbeats(m.id);
      return hbs.length > 0 ? hbs : undefined;
    });
    expect(up, JSON.stringify(up)).toMatchObject({ status: "up", error: null });
    expect((up?.steps as { name: string; status: string }[]).map((st) => [st.name, st.status])).toEqual([
      ["log in", "passed"],
      ["create", "passed"],
      ["read", "passed"],
      ["delete", "passed"],
    ]);
    expect(svc.deleted.length).toBeGreaterThan(0);

    svc.brokenRead = true;
    const deletedBefore = svc.deleted.length;
    const down = await eventually(async () => (await heartbeats(m.id)).find((hb) => hb.status === "down"));
    expect(down.error).toBe(
      'step 3 "read": 1 of 1 assertions failed: json_body $.name equals "probe item": found nothing',
    );
    expect(down.error_class).toBe("assertion");
    const steps = down.steps as { name: string; status: string; assertions: { pass: boolean }[] }[];
    expect(steps.map((st) => st.status)).toEqual(["passed", "passed", "failed", "passed"]);
    expect(steps[2]?.assertions[0]?.pass).toBe(false);
    expect(svc.deleted.length).toBeGreaterThan(deletedBefore);
    expect(svc.calls.filter((c) => c.startsWith("DELETE")).length).toBe(svc.deleted.length);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    svc.brokenRead = false;
  });

  it("masks a secret variable and a secret extraction wherever the run reports them, and keeps neither in the database files or the log", async () => {
    // The service echoes the password and the token: a failed assertion reports what it found.
    const echo = {
      name: "echo",
      method: "POST",
      url: `${svc.url}/echo`,
      body: '{"p":"{{password}}","t":"{{token}}"}',
      assertions: [{ source: "text_body", comparison: "equals", target: "nothing" }],
    };
    const res = await create({ steps: [journeySteps(svc.url)[0], echo] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const down = await eventually(async () => (await heartbeats(res.body.data.id)).find((hb) => hb.status === "down"));
    expect(down.error).toBe(
      'step 2 "echo": 1 of 1 assertions failed: text_body equals "nothing": found "{\\"p\\":\\"****\\",\\"t\\":\\"****\\"}"',
    );
    const dry = await s.call("POST", `/api/v1/monitors/${res.body.data.id}/test`);
    expect(dry.status).toBe(200);
    expect(dry.body.data.steps.map((st: { status: string }) => st.status)).toEqual(["passed", "failed"]);
    await s.call("DELETE", `/api/v1/monitors/${res.body.data.id}`);
    await s.close();
    const everything = [JSON.stringify(down), JSON.stringify(dry.body), logLines.join("\n")];
    const files = ["u.db", "u.db-wal", "u.db-shm"]
      .map((f) => join(dir, f))
      .filter(existsSync)
      .map((f) => readFileSync(f).toString("latin1"));
    for (const secret of [svc.password, ...svc.tokens]) {
      for (const text of [...everything, ...files])
        expect(text.includes(secret), `a secret in ${text.slice(0, 200)}`).toBe(false);
    }
    expect(svc.tokens.length).toBeGreaterThan(0);
    expect(logLines.length).toBeGreaterThan(0);
    expect(files.length).toBeGreaterThan(0);
    s = await startServer({ checker: false, minIntervalSec: 1 });
  });

  it("refuses an unknown {{variable}}, steps on other types, and more steps than the limit, naming the field", async () => {
    const steps = journeySteps(svc.url);
    steps[2] = { ...steps[2], url: `${svc.url}/items/{{idd}}` } as never;
    const unknown = await create({ steps });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toContainEqual({
      field: "steps[2].url",
      message: 'step "read" uses {{idd}}, which neither variables nor an earlier step\'s extract defines',
    });
    const onHttp = await postMonitor(s, { type: "http", url: svc.url, steps: journeySteps(svc.url) });
    expect(onHttp.status).toBe(422);
    expect(onHttp.body.error.details).toContainEqual({
      field: "steps",
      message: "is only allowed for multistep monitors, not http",
    });
    const many = await create({
      steps: Array.from({ length: 11 }, (_, i) => ({ name: `s${i}`, url: `${svc.url}/login` })),
    });
    expect(many.status).toBe(422);
    expect(many.body.error.details).toContainEqual({ field: "steps", message: "must have at most 10 steps" });
    const none = await create({ steps: [] });
    expect(none.body.error.details).toContainEqual({
      field: "steps",
      message: "must list at least one step for multistep monitors",
    });
  });
});
