/**
 * The set-up every engine test shares, as hooks of the `describe` block that calls it: a reference
 * server (`useServer`), an offline Pulumi engine (`useEngine`), and a stack of a copied program on an
 * engine of its own (`useStack`). Each call registers a `beforeAll` that makes the thing and an
 * `afterAll` that removes it, and returns a stand-in at once: the stand-in forwards every property
 * and method to the real object once its `beforeAll` has run, so the describe block can name it
 * (`const s = useServer()`) and its tests and later hooks use it as the object itself.
 *
 * Hooks run in the order they are registered and clean up in reverse (Vitest's `sequence.hooks:
 * "stack"`): call `useServer` first, then start the test's own targets in a `beforeAll` of their
 * own, then `useStack`, whose config may name them all.
 *
 * @example
 * describe("lookups through the real engine", () => {
 *   const s = useServer();
 *   const { stack } = useStack({ program: "test/engine/programs/lookups", server: s, config: () => ({ slug: { value: "public" } }) });
 *   it("deploys", async () => expect((await stack.up()).summary.result).toBe("succeeded"));
 * });
 */
import type { ConfigMap, OutputMap, Stack } from "@pulumi/pulumi/automation";
import { rmSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { type OfflineEngine, offlineEngine, type OfflineEngineOptions } from "../../scripts/pulumi-engine";
import { type NativeEngine, nativeEngine } from "../engine/native";
import { programCopy } from "../engine/programs";
import type { TestServer } from "./server";
import { standIn, useServer } from "./use-server";

export { useServer };

/**
 * The values of a stack's outputs, by name. Give it what `stack.up()` returned (`.outputs`) rather
 * than `await stack.outputs()`: `up` read them already, and each `stack.outputs()` is two more runs of
 * the CLI (`stack output --json`, then with `--show-secrets`), about 0.65 CPU seconds.
 */
export function outputValues(outputs: OutputMap): Record<string, OutputMap[string]["value"]> {
  return Object.fromEntries(Object.entries(outputs).map(([name, output]) => [name, output.value]));
}

/**
 * An offline engine (a `file://` backend and PULUMI_HOME of its own, see scripts/pulumi-engine.ts)
 * for a block that makes its stacks itself; removed with its state after the block's tests.
 */
export function useEngine(options: OfflineEngineOptions = {}): OfflineEngine {
  let engine: OfflineEngine | undefined;
  beforeAll(async () => {
    engine = await offlineEngine(options);
  });
  afterAll(() => engine?.dispose());
  return standIn("the engine of useEngine()", () => engine);
}

/** What `useStack` sets up. */
export interface StackOptions {
  /**
   * The program. A folder from the repository root (`test/engine/programs/uptime`,
   * `examples/full-stack`), copied to a temp folder with the packed pulumi-uptime as its
   * node_modules; with `native`, a name under test/engine/programs or a path from the root, copied
   * by the native engine. Or a function that prepares a folder itself and returns it (removed after).
   */
  program: string | (() => string);
  /**
   * The server the program's provider connects to: sets `uptime:baseUrl` and `uptime:apiKey` (its
   * dev key, as a secret). Leave it out for a program that connects its own way.
   */
  server?: TestServer;
  /** More stack config, read after every earlier `beforeAll`; it wins over the connection. */
  config?: () => ConfigMap | Promise<ConfigMap>;
  /** Options of the offline engine made for this stack. */
  engine?: OfflineEngineOptions;
  /** Runs the program on the native plugin instead (nativeEngine builds it, with the SDKs named). */
  native?: Parameters<typeof nativeEngine>[0];
  /** The stack's name; `dev` by default. */
  name?: string;
  /** `false`: no `pulumi destroy` at the end (the test leaves nothing, or its server goes away with all). */
  destroy?: boolean;
}

/** What `useStack` returns: stand-ins, usable in tests and in hooks registered after it. */
export interface TestStack {
  /** The stack, its config set. */
  stack: Stack;
  /** The stack's engine: for more stacks on the same backend, or its `stateDir` and `envVars`. */
  engine: OfflineEngine;
  /** The program's copy. */
  program: { workDir: string };
  /** The native plugin's engine (only with `native`): for more programs on the plugin. */
  native: NativeEngine;
}

/**
 * A stack of a copy of `program` on an engine of its own, made before the block's tests (with its
 * config set) and, after them, destroyed, its engine and program copy removed.
 */
export function useStack(options: StackOptions): TestStack {
  let engine: OfflineEngine | undefined;
  let native: NativeEngine | undefined;
  let workDir: string | undefined;
  let stack: Stack | undefined;
  // The native plugin's build and SDKs take minutes on a cold cache.
  const timeout = options.native ? 600_000 : undefined;
  beforeAll(async () => {
    if (options.native) {
      native = await nativeEngine(options.native);
      engine = native.engine;
      workDir = native.program(options.program as string);
    } else {
      engine = await offlineEngine(options.engine);
      workDir = typeof options.program === "function" ? options.program() : programCopy(options.program).workDir;
    }
    stack = await engine.stack(workDir, options.name ?? "dev");
    const connection: ConfigMap = options.server
      ? {
          "uptime:baseUrl": { value: options.server.url },
          "uptime:apiKey": { value: options.server.key, secret: true },
        }
      : {};
    const config = { ...connection, ...(await options.config?.()) };
    if (Object.keys(config).length > 0) await stack.setAllConfig(config);
  }, timeout);
  afterAll(async () => {
    if (options.destroy !== false) await stack?.destroy().catch(() => undefined);
    if (native) native.dispose();
    else {
      engine?.dispose();
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    }
  });
  return {
    stack: standIn("the stack of useStack()", () => stack),
    engine: standIn("the engine of useStack()", () => engine),
    program: standIn("the program of useStack()", () => (workDir === undefined ? undefined : { workDir })),
    native: standIn("the native engine of useStack({ native })", () => native),
  };
}
