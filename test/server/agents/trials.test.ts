import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor } from "../../../provider/client/client";
import * as runtime from "../../../provider/runtime";
import { REPORT_ENV, REPORT_LOCATION_ENV } from "../../../provider/runtime/test-checks";
import { startServer, type TestServer } from "../../support/server";
import { startTarget, type Target } from "../../support/target";
import { agentCli, agentKeyFile, locationLive } from "../../support/agent-location";

/**
 * Dry runs at a chosen location (`pulumi-uptime test --location NAME`): the server hands the
 * check to a live agent of it. The agent (a real `uptime-server agent` process) keeps its default
 * outbound policy, which refuses loopback targets, while the server allows them: the answer shows
 * where the check ran.
 */
describe("dry runs at an agent location", () => {
  let s: TestServer;
  let target: Target;
  let dir: string;
  let agent: ChildProcess;
  let agentLog = "";

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "uptime-trials-"));
    s = await startServer({ checker: true, agentLiveMs: 5_000 });
    target = await startTarget();
    const keyFile = await agentKeyFile(s, dir, "eu");
    await s.app.store.keys.create("dev", "us agent", undefined, "us");
    agent = spawn(process.execPath, agentCli(s.url, "eu", keyFile), { stdio: ["ignore", "ignore", "pipe"] });
    agent.stderr?.on("data", (d) => (agentLog += d));
    await locationLive(s, "eu");
  });
  afterAll(async () => {
    agent?.kill("SIGKILL");
    await s?.close();
    await target?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const spec = () => ({ name: "api", type: "http", url: target.url, interval_sec: 60, timeout_sec: 2 });

  it("runs the check at the agent's location and answers with what the agent found; the built-in location runs it in the server", async () => {
    const atAgent = await s.call("POST", "/api/v1/monitors/test?location=eu", spec());
    expect(atAgent.status, JSON.stringify(atAgent.body)).toBe(200);
    expect(atAgent.body.data).toMatchObject({ status: "down", error: expect.stringMatching(/loopback|private/i) });
    const local = await s.call("POST", "/api/v1/monitors/test?location=local", spec());
    expect(local.body.data).toMatchObject({ status: "up", status_code: 200 });
    // A stored monitor too; nothing is recorded.
    const m = (await s.call("POST", "/api/v1/monitors", { ...spec(), locations: ["local"] })).body.data;
    expect((await s.call("POST", `/api/v1/monitors/${m.id}/test?location=eu`)).body.data).toMatchObject({
      status: "down",
    });
    expect(
      (await s.call("GET", `/api/v1/monitors/${m.id}/heartbeats`)).body.data.filter(
        (b: { location: string }) => b.location === "eu",
      ),
    ).toEqual([]);
    await s.call("DELETE", `/api/v1/monitors/${m.id}`);
    expect(agentLog).not.toMatch(/refused|fatal/i);
  });

  it("an unknown location is a 422 naming it; a location with no live agent a 409 naming it", async () => {
    const unknown = await s.call("POST", "/api/v1/monitors/test?location=mars", spec());
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([
      {
        field: "location",
        message:
          "mars is not one of the account's locations (eu, local, us); an agent key makes it one: uptime-server keys create --db <database> --account <account> --scope agent --location mars",
      },
    ]);
    const idle = await s.call("POST", "/api/v1/monitors/test?location=us", spec());
    expect(idle.status).toBe(409);
    expect(idle.body.error.message).toMatch(/^Location us has no live agent .*uptime-server agent --location us$/);
  });

  it("pulumi-uptime test --location: the provider's report line is the agent's finding", async () => {
    const file = join(dir, "report.jsonl");
    const connection = { baseUrl: s.url, apiKey: s.key };
    clientFor(connection);
    process.env[REPORT_ENV] = file;
    process.env[REPORT_LOCATION_ENV] = "eu";
    try {
      await runtime.check(
        "Monitor",
        {},
        { name: "api", type: "http", url: target.url, intervalSec: 60, timeoutSec: 2, connection },
      );
    } finally {
      delete process.env[REPORT_ENV];
      delete process.env[REPORT_LOCATION_ENV];
    }
    const line = JSON.parse(readFileSync(file, "utf8").trim());
    expect(line).toMatchObject({
      resource: "api",
      outcome: "fail",
      failure: expect.stringMatching(/loopback|private/i),
    });
  });
});
