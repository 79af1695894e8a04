import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgentLocation } from "../../support/agent-location";
import { journeySteps, type JourneyService, startJourneyService } from "../../support/journey-service";
import { postMonitor, type TestServer } from "../../support/server";
import { eventually } from "../../support/target";

describe("multi-step monitors at an agent location", () => {
  let s: TestServer;
  let svc: JourneyService;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ s, close } = await startAgentLocation());
    svc = await startJourneyService();
  });
  afterAll(async () => {
    await close?.();
    await svc?.close();
  });

  it("the agent runs the journey, and the heartbeat it posts carries each step, secrets masked", async () => {
    const res = await postMonitor(s, {
      type: "multistep",
      interval_sec: 5,
      // Four requests: a second was too little for them beside other suites.
      timeout_sec: 4,
      locations: ["eu"],
      variables: { password: svc.password },
      steps: journeySteps(svc.url),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id;
    const hb = await eventually(
      async () =>
        ((await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[])[0],
    );
    expect(hb).toMatchObject({ location: "eu", status: "up" });
    expect((hb.steps as { status: string }[]).map((st) => st.status)).toEqual(["passed", "passed", "passed", "passed"]);

    svc.brokenRead = true;
    const down = await eventually(async () =>
      ((await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[]).find(
        (h) => h.status === "down",
      ),
    );
    expect(down).toMatchObject({ location: "eu", error: expect.stringMatching(/^step 3 "read": /) });
    expect((down.steps as { status: string }[])[3]?.status).toBe("passed");
    const dry = await s.call("POST", `/api/v1/monitors/${id}/test?location=eu`);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.data.steps.map((st: { status: string }) => st.status)).toEqual([
      "passed",
      "passed",
      "failed",
      "passed",
    ]);
    for (const secret of [svc.password, ...svc.tokens]) expect(JSON.stringify([down, dry.body])).not.toContain(secret);
  });
});
