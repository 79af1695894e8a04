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
import type { ConfigMap, OutputMap, PreviewOptions, Stack } from "@pulumi/pulumi/automation";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { type OfflineEngine, offlineEngine, type OfflineEngineOptions } from "../../scripts/pulumi-engine";
import { type NativeEngine, nativeEngine } from "../engine/native";
import { programCopy } from "../engine/programs";
import type { TestServer } from "./server";
import { eventually } from "./target";
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
  /**
   * `true`: a `pulumi destroy` after the block's tests, its failure ignored. Off by default: the
   * engine's state is removed with its folder, and what the stack made lives on the block's
   * server, which closes after it, so a destroy there would prove nothing and cost a run of the
   * CLI, the provider and a delete a resource (about 2.3 CPU seconds for five). A test that
   * proves a destroy runs it itself and checks what it did.
   */
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
 * config set) and, after them, its engine and program copy removed (destroyed first only with
 * `destroy: true`).
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
    if (options.destroy === true) await stack?.destroy().catch(() => undefined);
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

/**
 * Something the block's program reaches (a site, a mail server, a receiver): `start` runs in a
 * `beforeAll` registered where this is called (after `useServer`, before `useStack`, whose config
 * may name it) and `close` in the matching `afterAll`. Returns a stand-in, as `useServer` does.
 */
export function useTarget<T extends { close(): unknown }>(start: () => Promise<T>): T {
  let target: T | undefined;
  beforeAll(async () => {
    target = await start();
  });
  afterAll(async () => {
    await target?.close();
  });
  return standIn("the target of useTarget()", () => target);
}

/**
 * The monitors of the server's dev key, read from its store (no request, so no rate limit): for
 * tests that count what a run made while the run goes on. Reads the key's account on first use.
 */
export function serverMonitors<
  T = Awaited<ReturnType<TestServer["app"]["store"]["monitors"]["list"]>>["items"][number],
>(server: TestServer): () => Promise<T[]> {
  let accountId: string | undefined;
  return async () => {
    accountId ??= (await server.app.store.keys.authenticate(server.key))?.accountId as string;
    return (await server.app.store.monitors.list(accountId, { limit: 1000 })).items as T[];
  };
}

/** The message of a `preview` that is meant to fail (the program's or a resource's error); "" if it passed. */
export function previewError(stack: Stack, options?: PreviewOptions): Promise<string> {
  return stack.preview(options).then(
    () => "",
    (err: Error) => err.message,
  );
}

/**
 * The message of a `preview` of `stack` with `config` set, meant to fail ("" if it passed); the
 * config is removed again after. Checks that the preview made no monitor on `server`.
 */
export async function refusedPreview(
  stack: Stack,
  server: TestServer,
  config: ConfigMap,
  options?: PreviewOptions,
): Promise<string> {
  await stack.setAllConfig(config);
  const failed = await previewError(stack, options);
  for (const key of Object.keys(config)) await stack.removeConfig(key);
  expect((await server.call("GET", "/api/v1/monitors")).body.data).toEqual([]);
  return failed;
}

/** Every file of the engine's backend (checkpoints, history, backups) as stored, in one string. */
export function stateFiles(engine: OfflineEngine): string {
  return readdirSync(join(engine.stateDir, "backend"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

/**
 * Checks that `secret` shows in no state file of `engine` and not in `output` (the lines the engine
 * printed); `stateHolds` is a text the state must hold, so a state read wrong cannot pass.
 */
export function expectSecretNowhere(engine: OfflineEngine, output: string[], secret: string, stateHolds: string): void {
  const state = stateFiles(engine);
  expect(state).toContain(stateHolds);
  for (const [where, text] of Object.entries({ state, output: output.join("") }))
    expect(text.includes(secret), where).toBe(false);
}

/**
 * Waits until each monitor is up on the server, after a pause and a resume of each: a resumed
 * monitor is checked at once, with no wait for the next of its interval.
 */
export async function checkedUp(server: TestServer, ids: string[]): Promise<void> {
  for (const id of ids) {
    await server.call("POST", `/api/v1/monitors/${id}/pause`);
    await server.call("POST", `/api/v1/monitors/${id}/resume`);
    await eventually(async () => (await server.call("GET", `/api/v1/monitors/${id}`)).body.data.health === "up");
  }
}
