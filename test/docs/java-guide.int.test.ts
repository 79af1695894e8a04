import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { type NativeEngine, nativeEngine } from "../engine/native";
import { startServer, type TestServer } from "../support/server";
import { blocksOf, type DocBlock } from "./blocks";

const GUIDE = "docs/guides/languages.md";
const FILES = ["Pulumi.yaml", "pom.xml", "src/main/java/myproject/App.java"];

/** The guide's Java program: its `<!-- file: NAME -->` blocks, by name. */
async function guideProgram(): Promise<Map<string, DocBlock>> {
  const blocks = await blocksOf(GUIDE, readFileSync(join(REPO_ROOT, GUIDE), "utf8"));
  return new Map(
    blocks.filter((b) => b.marker?.startsWith("file: ")).map((b) => [b.marker!.slice("file: ".length).trim(), b]),
  );
}

describe("the languages guide's Java program", () => {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-java-guide-"));
  let program: Map<string, DocBlock>;
  let s: TestServer;
  let native: NativeEngine;
  let stack: Stack;

  beforeAll(async () => {
    program = await guideProgram();
    for (const [name, block] of program) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), `${block.code}\n`);
    }
  });

  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    native?.dispose();
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is a whole Maven program, the one the engine test deploys (examples/native-java)", () => {
    expect([...program.keys()].sort()).toEqual([...FILES].sort());
    for (const name of FILES)
      expect(`${program.get(name)!.code}\n`, name).toBe(
        readFileSync(join(REPO_ROOT, "examples/native-java", name), "utf8"),
      );
  });

  it("runs as written: up creates its four resources, a second preview is clean, destroy leaves nothing", async () => {
    s = await startServer();
    native = await nativeEngine({ java: true });
    stack = await native.engine.stack(native.program(dir));
    await stack.setAllConfig({
      "uptime:baseUrl": { value: s.url },
      "uptime:apiKey": { value: s.key, secret: true },
      hookUrl: { value: `${s.url}/hooks/guide-hook`, secret: true },
      headerToken: { value: "guide-header-token", secret: true },
    });
    expect((await stack.up()).summary.resourceChanges).toMatchObject({ create: 5 });
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
    const monitors = (await s.call("GET", "/api/v1/monitors")).body.data as { type: string }[];
    expect(monitors.map((m) => m.type).sort()).toEqual(["http", "multistep"]);
    await stack.destroy();
    expect((await s.call("GET", "/api/v1/monitors")).body.data).toEqual([]);
    expect((await s.call("GET", "/api/v1/channels")).body.data).toEqual([]);
    expect((await s.call("GET", "/api/v1/status-pages")).body.data).toEqual([]);
  }, 600_000);
});
