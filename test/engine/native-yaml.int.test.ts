import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, describe, expect, it } from "vitest";
import { expectNotInState } from "./native";
import { describeNativeProgram } from "./native-program";
import { itHonoursReplaceOnChanges } from "./replace-on-changes";

const HOOK_TOKEN = "yaml-hook-token-5d1e7a";

describeNativeProgram(
  "a YAML program through the native plugin",
  { program: "native-yaml", hookToken: HOOK_TOKEN, headerToken: "yaml-header-token-c40b9f" },
  (ctx) => {
    describe("a monitor declared with replaceOnChanges", () => {
      let replace: Stack | undefined;
      const context = async () => {
        if (!replace) {
          replace = await ctx.native.engine.stack(ctx.native.program("native-replace"), "replace");
          await replace.setAllConfig({ "uptime:baseUrl": { value: ctx.s.url }, "uptime:apiKey": { value: ctx.s.key, secret: true } });
        }
        return { stack: replace, s: ctx.s };
      };
      afterAll(async () => {
        await replace?.destroy().catch(() => undefined);
        await replace?.workspace.removeStack("replace", { force: true }).catch(() => undefined);
      });
      itHonoursReplaceOnChanges(context);
    });

    it("imports a monitor, a channel and a status page made through the REST API; after one config write (a no-op on the server) the preview is clean", async () => {
      // Read when the test runs: the server and engine exist once `beforeAll` has run.
      const { s, native, live } = ctx;
      const hookUrl = `${s.url}/hooks/${HOOK_TOKEN}-import`;
      const monitor = (
        await s.call("POST", "/api/v1/monitors", {
          name: "made by hand",
          type: "keyword",
          url: "https://example.com/",
          interval_sec: 300,
          keyword: "Example Domain",
          tags: ["legacy"],
        })
      ).body.data;
      const channel = (await s.call("POST", "/api/v1/channels", { name: "oncall", type: "webhook", config: { url: hookUrl } })).body.data;
      const page = (await s.call("POST", "/api/v1/status-pages", { slug: "legacy-status", title: "Legacy status", monitor_ids: [monitor.id] }))
        .body.data;
      const workDir = native.program("native-import");
      const imported = await native.engine.stack(workDir, "import");
      try {
        await imported.setAllConfig({
          "uptime:baseUrl": { value: s.url },
          "uptime:apiKey": { value: s.key, secret: true },
          hookUrl: { value: hookUrl, secret: true },
        });
        const file = join(workDir, "import.json");
        const resources = [
          { type: "uptime:index:Monitor", name: "legacy", id: monitor.id },
          { type: "uptime:index:Channel", name: "oncall", id: channel.id },
          { type: "uptime:index:StatusPage", name: "public", id: page.id },
        ];
        writeFileSync(file, JSON.stringify({ resources }));
        await native.pulumi(["import", "--file", file, "--yes", "--protect=false", "--stack", "import"], workDir);
        // Reads mask a channel's config and the server keys its fingerprint, so an imported channel
        // cannot be verified: its config shows as one update. That update writes the declared config,
        // which the server already holds, so it writes nothing; then the record is exact.
        expect((await imported.preview()).changeSummary).toEqual({ same: 3, update: 1 });
        const channelBefore = (await live(`/api/v1/channels/${channel.id}`)).data;
        expect((await imported.up()).summary.resourceChanges).toEqual({ same: 3, update: 1 });
        expect((await live(`/api/v1/channels/${channel.id}`)).data).toEqual(channelBefore);
        expect((await imported.preview()).changeSummary).toEqual({ same: 4 });
        expectNotInState(native.engine, monitor.id, [s.key, HOOK_TOKEN]);
        await imported.destroy();
        expect((await live(`/api/v1/monitors/${monitor.id}`)).error.code).toBe("not_found");
        expect((await live(`/api/v1/channels/${channel.id}`)).error.code).toBe("not_found");
      } finally {
        await imported.workspace.removeStack("import", { force: true }).catch(() => undefined);
      }
    });
  },
);
