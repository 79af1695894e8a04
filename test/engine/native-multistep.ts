import { describe, expect, it } from "vitest";
import { previewError, useServer, useStack, useTarget } from "../support/engine-suite";
import { startJourneyService } from "../support/journey-service";
import { eventually } from "../support/target";
import { expectNotInState, type NativeSdks } from "./native";

/** The same multi-step program, in the language of `program`, through the plugin (and its generated SDK). */
export function describeNativeMultistep(label: string, program: string, options: NativeSdks = {}): void {
  describe(label, () => {
    const s = useServer({ checker: true });
    const svc = useTarget(() => startJourneyService());
    const { stack, native } = useStack({
      program,
      native: options,
      server: s,
      config: () => ({ serviceUrl: { value: svc.url }, password: { value: svc.password, secret: true } }),
    });

    it("a step using an unknown {{variable}} fails the preview, naming the property", async () => {
      await stack.setConfig("idVariable", { value: "{{itemid}}" });
      const failed = await previewError(stack);
      expect(failed).toMatch(
        /steps\[2\]\.url: step "read" uses \{\{itemid\}\}, which neither variables nor an earlier step's extract defines/,
      );
      await stack.removeConfig("idVariable");
    }, 300_000);

    it("deploys the typed steps and retry strategy, the journey passes, and a refresh finds no drift", async () => {
      const up = await stack.up();
      const id = up.outputs.id?.value as string;
      const live = (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
      expect(live.retry).toEqual({
        strategy: "exponential",
        delay: 200,
        retries: 3,
        duration: 60,
        trigger: "failure",
        location: "same",
      });
      expect(live.steps[0]).toMatchObject({
        name: "log in",
        method: "POST",
        headers: { "content-type": "application/json" },
        extract: [{ name: "token", source: "json_body", property: "$.token", secret: true }],
      });
      const hb = await eventually(
        async () =>
          (
            (await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[]
          )[0],
      );
      expect(hb).toMatchObject({ status: "up" });
      expect((hb.steps as { status: string }[]).map((st) => st.status)).toEqual([
        "passed",
        "passed",
        "passed",
        "passed",
      ]);
      // The secret input stays sealed in the state as the backend keeps it, whatever the language.
      expectNotInState(native.engine, '"steps"', [svc.password]);
      const refreshed = await stack.preview({ refresh: true } as never);
      expect(refreshed.changeSummary).toEqual({ same: 2 });
    }, 300_000);
  });
}
