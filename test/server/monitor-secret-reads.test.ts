import { describe, expect, it } from "vitest";
import { postMonitor } from "../support/server";
import { startTarget } from "../support/target";
import { useServer, useStarted } from "../support/use-server";

const TOKEN = 'pa55 "word" & more';
const FINGERPRINT = /^hmac-sha256:[0-9a-f]{64}$/;

/** Secret variables are write-only: every monitor read shows a fingerprint, never the value. */
describe("monitor reads show fingerprints of secret variables", () => {
  const s = useServer({ minIntervalSec: 1 });
  const target = useStarted("the target", startTarget);

  const monitor = (token: string, extra: Record<string, unknown> = {}) => ({
    name: "journey",
    type: "multistep",
    interval_sec: 60,
    variables: { token, empty: "" },
    steps: [{ name: "one", url: `${target.url}/`, headers: { "x-token": "{{token}}" } }],
    ...extra,
  });

  it("the create answer, GET, the list, PATCH, pause, a replayed create and DELETE hold no value", async () => {
    const created = await s.call("POST", "/api/v1/monitors", monitor(TOKEN), {
      headers: { "idempotency-key": "create-secret-reads" },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const fp = created.body.data.variables.token as string;
    expect(fp).toMatch(FINGERPRINT);
    expect(created.body.data.variables.empty).toMatch(FINGERPRINT);
    const replay = await s.call("POST", "/api/v1/monitors", monitor(TOKEN), {
      headers: { "idempotency-key": "create-secret-reads" },
    });
    const answers = [
      created,
      replay,
      await s.call("GET", `/api/v1/monitors/${id}`),
      await s.call("GET", "/api/v1/monitors"),
      await s.call("PATCH", `/api/v1/monitors/${id}`, { name: "renamed" }),
      await s.call("POST", `/api/v1/monitors/${id}/pause`),
    ];
    for (const answer of answers) {
      expect(JSON.stringify(answer.body)).not.toContain("pa55");
      expect(JSON.stringify(answer.body)).toContain(fp);
    }
    // The same value reads as the same fingerprint: a client compares it with the one a write returned.
    expect((await s.call("GET", `/api/v1/monitors/${id}`)).body.data.variables).toEqual(created.body.data.variables);
    const deleted = await s.call("DELETE", `/api/v1/monitors/${id}`);
    expect(JSON.stringify(deleted.body)).not.toContain("pa55");
  });

  it("the fingerprint changes with the value, differs between monitors, and a PATCH that sends it back keeps the value", async () => {
    const a = (await s.call("POST", "/api/v1/monitors", monitor(TOKEN))).body.data;
    const b = (await s.call("POST", "/api/v1/monitors", monitor(TOKEN))).body.data;
    expect(a.variables.token).not.toBe(b.variables.token);
    const changed = (
      await s.call("PATCH", `/api/v1/monitors/${a.id}`, { variables: { token: "another value", empty: "" } })
    ).body.data;
    expect(changed.variables.token).toMatch(FINGERPRINT);
    expect(changed.variables.token).not.toBe(a.variables.token);
    // Read-modify-write: the fingerprint written back stands for the value it was read from.
    const echoed = (await s.call("PATCH", `/api/v1/monitors/${a.id}`, { variables: changed.variables })).body.data;
    expect(echoed.variables).toEqual(changed.variables);
    // The check still runs with the value: the step sends it, the target sees it.
    target.headers = {};
    const run = await s.call("POST", `/api/v1/monitors/${a.id}/test`);
    expect(run.body.data.status, JSON.stringify(run.body)).toBe("up");
    for (const id of [a.id, b.id]) await s.call("DELETE", `/api/v1/monitors/${id}`);
  });

  it("a browser monitor's variables read as fingerprints too", async () => {
    const created = await postMonitor(s, {
      type: "browser",
      timeout_sec: 20,
      script: "await page.goto(process.env.URL);",
      variables: { URL: target.url, PASSWORD: TOKEN },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.variables.PASSWORD).toMatch(FINGERPRINT);
    expect(JSON.stringify((await s.call("GET", `/api/v1/monitors/${created.body.data.id}`)).body)).not.toContain(
      "pa55",
    );
    await s.call("DELETE", `/api/v1/monitors/${created.body.data.id}`);
  });
});
