import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, describe, expect, it } from "vitest";
import { expectNotInState } from "./native";
import { connectedStack, describeNativeProgram, HAND_MADE_MONITOR } from "./native-program";
import { itHonoursReplaceOnChanges } from "./replace-on-changes";

const HOOK_TOKEN = "yaml-hook-token-5d1e7a";

describeNativeProgram(
  "a YAML program through the native plugin",
  { program: "native-yaml", hookToken: HOOK_TOKEN, headerToken: "yaml-header-token-c40b9f" },
  (ctx) => {
    describe("a monitor declared with replaceOnChanges", () => {
      let replace: Stack | undefined;
      const context = async () => {
        replace ??= (await connectedStack(ctx, "native-replace", "replace")).stack;
        return { stack: replace, s: ctx.s };
      };
      // Destroyed before the program's last test, which finds the server empty after its own destroy.
      afterAll(async () => {
        await replace?.destroy().catch(() => undefined);
        await replace?.workspace.removeStack("replace", { force: true }).catch(() => undefined);
      });
      itHonoursReplaceOnChanges(context);
    });

    it("`pulumi import` of a monitor with headers and a body: the generated program fails naming both, and wipes neither", async () => {
      const { s, native, live } = ctx;
      const headers = { "X-Api-Token": "import-header-9e1c", Accept: "application/json" };
      const made = await s.call("POST", "/api/v1/monitors", {
        name: "with secrets",
        type: "http",
        url: "https://example.com/api",
        interval_sec: 120,
        method: "POST",
        body: "probe=import-body-3b7a",
        headers,
      });
      const id = made.body.data.id as string;
      // The program's own config (its channel's URL) must be set before `pulumi import` reads it.
      const { workDir, stack } = await connectedStack(ctx, "native-import", "import-secrets", {
        hookUrl: { value: `${s.url}/hooks/unused`, secret: true },
      });
      try {
        const generated = join(workDir, "generated.yaml");
        await native.pulumi(
          [
            "import",
            "uptime:index:Monitor",
            "legacy",
            id,
            "--yes",
            "--protect=false",
            "--stack",
            "import-secrets",
            "--out",
            generated,
          ],
          workDir,
        );
        const code = readFileSync(generated, "utf8");
        expect(code).toMatch(/type: uptime:(index:)?Monitor/);
        expect(code).not.toMatch(/import-header-9e1c|import-body-3b7a|headers|body/);
        expectNotInState(native.engine, id, ["import-header-9e1c", "import-body-3b7a"]);

        // The generated program as it is: the first preview fails, naming what to declare.
        writeFileSync(join(workDir, "Pulumi.yaml"), `name: uptime-native-import\nruntime: yaml\n${code}`);
        const failed = String(await stack.preview().catch((e: Error) => e));
        expect(failed).toMatch(
          new RegExp(`headers: monitor ${id} holds 2 request headers this program does not declare`),
        );
        expect(failed).toMatch(new RegExp(`body: monitor ${id} holds a request body this program does not declare`));
        await expect(stack.up()).rejects.toThrow(/holds 2 request headers/);
        expect((await live(`/api/v1/monitors/${id}`)).data).toMatchObject({
          headers: { "x-api-token": s.shownHeader(id, "x-api-token", headers["X-Api-Token"]), accept: headers.Accept },
        });

        // Declared from secret config, as the message says: nothing to change, nothing wiped.
        await stack.setAllConfig({
          token: { value: headers["X-Api-Token"], secret: true },
          probe: { value: "probe=import-body-3b7a", secret: true },
        });
        const declared = code.replace(
          /^(\s+)properties:\n/m,
          (line, indent: string) =>
            `${line}${indent}  headers:\n${indent}    x-api-token: \${token}\n${indent}    accept: application/json\n${indent}  body: \${probe}\n`,
        );
        writeFileSync(
          join(workDir, "Pulumi.yaml"),
          `name: uptime-native-import\nruntime: yaml\nconfig:\n  token: { type: string, secret: true }\n  probe: { type: string, secret: true }\n${declared}`,
        );
        // A read shows a secret header only as its fingerprint, so the first up writes the declared
        // headers once (the same values); the body and everything else compare as they are.
        const first = await stack.preview({ diff: true });
        expect(first.changeSummary).toEqual({ same: 1, update: 1 });
        expect(first.stdout).toMatch(/[~+] headers: \[secret\]/);
        expect(first.stdout).not.toMatch(/~ body|- body|\+ body/);
        await stack.up();
        expect((await stack.preview()).changeSummary).toEqual({ same: 2 });
        expect((await live(`/api/v1/monitors/${id}`)).data).toMatchObject({
          headers: { "x-api-token": s.shownHeader(id, "x-api-token", headers["X-Api-Token"]) },
          body: "probe=import-body-3b7a",
        });
        expectNotInState(native.engine, id, ["import-header-9e1c", "import-body-3b7a"]);
        await stack.destroy();
      } finally {
        await stack.workspace.removeStack("import-secrets", { force: true }).catch(() => undefined);
        await s.call("DELETE", `/api/v1/monitors/${id}`);
      }
      // Eight engine runs: more than the default timeout on a loaded machine.
    }, 900_000);

    it("imports a monitor, a channel and a status page made through the REST API; after one config write (a no-op on the server) the preview is clean", async () => {
      // Read when the test runs: the server and engine exist once `beforeAll` has run.
      const { s, native, live } = ctx;
      const hookUrl = `${s.url}/hooks/${HOOK_TOKEN}-import`;
      const monitor = (await s.call("POST", "/api/v1/monitors", HAND_MADE_MONITOR)).body.data;
      const channel = (
        await s.call("POST", "/api/v1/channels", { name: "oncall", type: "webhook", config: { url: hookUrl } })
      ).body.data;
      const page = (
        await s.call("POST", "/api/v1/status-pages", {
          slug: "legacy-status",
          title: "Legacy status",
          monitor_ids: [monitor.id],
        })
      ).body.data;
      const { workDir, stack: imported } = await connectedStack(ctx, "native-import", "import", {
        hookUrl: { value: hookUrl, secret: true },
      });
      try {
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
