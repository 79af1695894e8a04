/**
 * The native plugin under the real engine: the plugin bundled and installed from its tarball with
 * `pulumi plugin install`, the YAML and Python language hosts and the Python venv on PATH.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { expect } from "vitest";
import { bundlePlugin, type PluginBuild } from "../../plugin/build/bundle";
import { loadEnsure, venvWith } from "../../plugin/build/python";
import { buildSdks } from "../../plugin/build/sdks";
import { type OfflineEngine, offlineEngine, prepareProgram, REPO_ROOT } from "../../scripts/pulumi-engine";

/** An offline engine with the uptime plugin installed in its PULUMI_HOME. */
export interface NativeEngine {
  engine: OfflineEngine;
  plugin: PluginBuild;
  /**
   * Runs the engine's `pulumi` with its environment in `cwd`; resolves to stdout. Asynchronous:
   * the test server runs in this process and must keep answering the plugin.
   */
  pulumi(args: string[], cwd: string): Promise<string>;
  /** A copy of a program under test/engine/programs in a temp folder. */
  program(name: string): string;
  dispose(): void;
}

/** Builds the plugin (and, with `python`, the wheel into the cached venv) and installs it. */
export async function nativeEngine(options: { python?: boolean } = {}): Promise<NativeEngine> {
  const ensure = await loadEnsure();
  const cli = ensure.ensurePulumi();
  const hosts = ensure.ensureHosts().binDir;
  const buildDir = mkdtempSync(join(tmpdir(), "pulumi-uptime-plugin-"));
  const plugin = await bundlePlugin(buildDir);
  const venvBin = options.python ? [venvWith(buildSdks(plugin).wheel)] : [];
  // The v3.68 Python host ignores runtime.options.virtualenv: the venv's bin comes first instead.
  const path = [cli.binDir, hosts, ...venvBin, join(REPO_ROOT, "node_modules", ".bin"), process.env.PATH ?? ""].join(delimiter);
  const engine = await offlineEngine({ env: { PATH: path } });
  const env = { ...process.env, ...engine.envVars };
  const pulumi = async (args: string[], cwd: string) =>
    (await promisify(execFile)(join(engine.binDir, "pulumi"), [...args, "--non-interactive"], { cwd, env, timeout: 120_000 })).stdout;
  execFileSync(join(engine.binDir, "pulumi"), ["plugin", "install", "resource", "uptime", plugin.version, "--file", plugin.tarball], {
    cwd: buildDir,
    env,
    stdio: "ignore",
  });
  const programs: string[] = [];
  return {
    engine,
    plugin,
    pulumi,
    program(name) {
      const dir = prepareProgram(join(REPO_ROOT, "test/engine/programs", name), {});
      programs.push(dir);
      return dir;
    },
    dispose() {
      engine.dispose();
      for (const dir of [buildDir, ...programs]) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fails if the backend's files, as stored, hold any of these strings in plaintext. */
export function expectNotInState(engine: OfflineEngine, mustHave: string, secrets: string[]): void {
  const state = readdirSync(join(engine.stateDir, "backend"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
    .join("\n");
  expect(state).toContain(mustHave);
  for (const secret of secrets) expect(state).not.toContain(secret);
}
