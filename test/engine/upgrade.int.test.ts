import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { outputValues, useServer, useStack } from "../support/engine-suite";
import { orphansCommand } from "./killed-up";

/**
 * Resources written by an earlier version keep that version's provider in state (a serialized
 * closure); the installed version must take them over without a diff, a write or a replacement.
 */
describe("resources an earlier version wrote, under this version", () => {
  const s = useServer();
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/upgrade",
    server: s,
    config: () => ({ hookUrl: { value: `${s.url}/hooks/upgrade-token`, secret: true }, earlier: { value: "true" } }),
  });

  /** The uptime resources as the stack's state file holds them. */
  const stateResources = () => {
    const [file] = readdirSync(join(engine.stateDir, "backend"), { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && e.name === `${stack.name}.json`,
    );
    const resources: { type: string; inputs?: { __provider?: string }; sourcePosition?: string }[] = JSON.parse(
      readFileSync(join(file!.parentPath, file!.name), "utf8"),
    ).checkpoint.latest.resources;
    return resources.filter((r) => /:dynamic\/uptime:(Monitor|Channel)$/.test(r.type));
  };
  /** How each uptime resource's provider is written in the state. */
  const providers = async () => stateResources().map((r) => String(r.inputs?.__provider));

  it("previews clean, writes nothing, then updates and deletes them", async () => {
    const created = await stack.up();
    expect(created.summary.resourceChanges).toEqual({ create: 3 });
    for (const provider of await providers()) expect(provider).toMatch(/with\(\{ kind: "(Monitor|Channel)"/);
    // The outputs `up` returned (a `stack.outputs()` would be two more CLI runs).
    const { monitorId, channelId } = outputValues(created.outputs) as Record<string, string>;
    const before = await Promise.all(
      [`/api/v1/monitors/${monitorId}`, `/api/v1/channels/${channelId}`].map((p) => s.call("GET", p)),
    );

    // Marks of earlier versions carry no stack instance.
    expect(before.map((b) => b.body.data.external_id)).toEqual([
      "pulumi/uptime-upgrade/dev/Monitor/api",
      "pulumi/uptime-upgrade/dev/Channel/ops",
    ]);

    await stack.removeConfig("earlier");
    // The only change: the stack's StackIdentity, which new creates will carry in their marks.
    expect((await stack.preview()).changeSummary).toEqual({ same: 3, create: 1 });
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: 3, create: 1 });
    const after = await Promise.all(
      [`/api/v1/monitors/${monitorId}`, `/api/v1/channels/${channelId}`].map((p) => s.call("GET", p)),
    );
    expect(after.map((a) => a.body.data.updated_at)).toEqual(before.map((b) => b.body.data.updated_at));
    // The state now names each provider in one line.
    expect(await providers()).toEqual([
      'exports.handler = () => require("pulumi-uptime/provider/runtime").providerOf("Channel");\n',
      'exports.handler = () => require("pulumi-uptime/provider/runtime").providerOf("Monitor");\n',
    ]);
    // Registering formats the SDK's promise stacks cheaply; the source position Pulumi records
    // still goes through the installed formatter: the package's built file and line (it ships no
    // source maps): the constructor the resource classes share.
    expect(stateResources().map((r) => r.sourcePosition)).toEqual([
      expect.stringMatching(/node_modules\/pulumi-uptime\/dist\/provider\/resources\/table-resource\.js#\d+,\d+$/),
      expect.stringMatching(/node_modules\/pulumi-uptime\/dist\/provider\/resources\/table-resource\.js#\d+,\d+$/),
    ]);
    // Objects in the state are no orphans; an object with an earlier version's mark that the
    // state does not hold is one.
    expect(await orphansCommand(engine, program.workDir)).toMatchObject({ code: 0, report: { orphans: [] } });
    const stray = await s.call("POST", "/api/v1/monitors", {
      ...{ name: "stray", type: "http", url: "https://stray.example.com", interval_sec: 60 },
      external_id: "pulumi/uptime-upgrade/dev/Monitor/stray",
    });
    const found = await orphansCommand(engine, program.workDir);
    expect(found.report.orphans).toEqual([expect.objectContaining({ kind: "Monitor", id: stray.body.data.id })]);
    await s.call("DELETE", `/api/v1/monitors/${stray.body.data.id}`);

    await stack.setConfig("interval", { value: "120" });
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: 3, update: 1 });
    expect((await s.call("GET", `/api/v1/monitors/${monitorId}`)).body.data.interval_sec).toBe(120);

    await stack.destroy();
    expect((await s.call("GET", `/api/v1/monitors/${monitorId}`)).status).toBe(404);
    expect((await s.call("GET", `/api/v1/channels/${channelId}`)).status).toBe(404);
  });
});
