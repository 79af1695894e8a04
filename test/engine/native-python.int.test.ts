import { expect, it } from "vitest";
import { diffedProperties } from "./diff-output";
import { connectedStack, describeNativeProgram, HAND_MADE_MONITOR } from "./native-program";

describeNativeProgram(
  "a Python program through the native plugin and its generated SDK",
  { program: "native-python", python: true, hookToken: "py-hook-token-8e2f61", headerToken: "py-header-token-1a9d3c" },
  (ctx) => {
    it("imports a monitor with `pulumi import --generate-code=false`; declared by hand, the preview is clean", async () => {
      const { s, native, live } = ctx;
      const monitor = (await s.call("POST", "/api/v1/monitors", HAND_MADE_MONITOR)).body.data;
      const { workDir, stack: imported } = await connectedStack(ctx, "native-python-import", "import");
      try {
        const args = [
          "import",
          "uptime:index:Monitor",
          "legacy",
          monitor.id,
          "--yes",
          "--protect=false",
          "--stack",
          "import",
        ];
        await native.pulumi([...args, "--generate-code=false"], workDir);
        expect((await imported.preview()).changeSummary).toEqual({ same: 2 });
        // A declaration that differs from the live object shows exactly where.
        await s.call("PATCH", `/api/v1/monitors/${monitor.id}`, { interval_sec: 600 });
        const drift = await imported.preview({ refresh: true, diff: true });
        expect(diffedProperties(drift.stdout, "legacy")).toEqual(["intervalSec"]);
        await imported.destroy();
        expect((await live(`/api/v1/monitors/${monitor.id}`)).error.code).toBe("not_found");
      } finally {
        await imported.workspace.removeStack("import", { force: true }).catch(() => undefined);
      }
    });
  },
);
