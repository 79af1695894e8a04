import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OfflineEngine, offlineEngine } from "../../scripts/pulumi-engine";
import { startServer, type TestServer } from "../support/server";
import { programCopy } from "./programs";

describe("a program with a resource transform (pulumi.runtime.registerResourceTransform)", () => {
  let s: TestServer;
  let engine: OfflineEngine;
  let stack: Stack;
  let program: { workDir: string; remove: () => void };

  beforeAll(async () => {
    s = await startServer();
    engine = await offlineEngine();
    program = programCopy("test/engine/programs/transforms");
    stack = await engine.stack(program.workDir);
    await stack.setAllConfig({ "uptime:baseUrl": { value: s.url }, "uptime:apiKey": { value: s.key, secret: true } });
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
    engine?.dispose();
    program?.remove();
    await s?.close();
  });

  it("tags every monitor on the server through the transform, and a second preview shows no change", async () => {
    const up = await stack.up({ onOutput: (line) => process.stdout.write(line) });
    // The stack, its identity resource, two monitors and a channel.
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    const ids = up.outputs.monitorIds?.value as string[];
    expect(ids).toHaveLength(2);
    const tags = await Promise.all(ids.map(async (id) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data.tags as string[]));
    expect(tags).toEqual([
      ["prod", "team:payments"],
      ["team:payments"],
    ]);

    const again = await stack.preview();
    expect(again.changeSummary).toEqual({ same: 5 });
  });
});
