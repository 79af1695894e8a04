import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe } from "vitest";
import { type OfflineEngine, offlineEngine } from "../../scripts/pulumi-engine";
import { startServer, type TestServer } from "../support/server";
import { programCopy } from "./programs";
import { itHonoursReplaceOnChanges } from "./replace-on-changes";

describe("replaceOnChanges on a dynamic resource, installed from the packed package", () => {
  let s: TestServer;
  let engine: OfflineEngine;
  let stack: Stack;
  let remove: () => void = () => undefined;

  beforeAll(async () => {
    s = await startServer();
    engine = await offlineEngine();
    const program = programCopy("test/engine/programs/replace-on-changes");
    remove = program.remove;
    stack = await engine.stack(program.workDir);
    await stack.setAllConfig({ "uptime:baseUrl": { value: s.url }, "uptime:apiKey": { value: s.key, secret: true } });
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    engine?.dispose();
    remove();
    await s?.close();
  });

  itHonoursReplaceOnChanges(async () => ({ stack, s }));
});
