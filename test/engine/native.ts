/**
 * The native plugin under the real engine: the plugin bundled and installed from its tarball with
 * `pulumi plugin install`, the YAML, Python, Go and Java language hosts and the Python venv on PATH.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, isAbsolute, join } from "node:path";
import { expect } from "vitest";
import { bundlePlugin, type PluginBuild } from "../../plugin/build/bundle";
import { goEnv } from "../../plugin/build/cache";
import { goModulePath } from "../../plugin/build/go";
import { buildJavaSdk, ensureJavaToolsBin, installJavaSdk, javaProgramSettings } from "../../plugin/build/java";
import { loadEnsure, venvWith } from "../../plugin/build/python";
import { buildSdks, type SdkBuild } from "../../plugin/build/sdks";
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
  /**
   * A copy of a program in a temp folder: a name under test/engine/programs, a path from the
   * repository root (`examples/native-go`), or an absolute path. A Go program's SDK `replace` points at the built SDK;
   * a Java program's Maven runs offline with the project's repository, where the Java SDK is.
   */
  program(name: string): string;
  dispose(): void;
}

/** The SDKs and language hosts a native engine builds besides the plugin (see `nativeEngine`). */
export interface NativeSdks {
  python?: boolean;
  go?: boolean;
  nodejs?: boolean;
  java?: boolean;
}

/**
 * Builds the plugin (with `python`, the wheel into the cached venv; with `go`, the Go SDK module
 * and the Go language host; with `nodejs`, the compiled Node.js SDK; with `java`, the Java SDK in
 * the project's Maven repository and the Java language host) and installs it.
 */
export async function nativeEngine(options: NativeSdks = {}): Promise<NativeEngine> {
  const ensure = await loadEnsure();
  const cli = await ensure.ensurePulumi();
  const hosts = (await ensure.ensureHosts()).binDir;
  const buildDir = mkdtempSync(join(tmpdir(), "pulumi-uptime-plugin-"));
  const plugin = await bundlePlugin(buildDir);
  const sdks = options.python || options.go || options.nodejs ? await buildSdks(plugin) : undefined;
  const venvBin = options.python && sdks ? [await venvWith(sdks.wheel)] : [];
  const goBin = options.go ? [(await ensure.ensureGoHost()).binDir] : [];
  if (options.java) await installJavaSdk(await buildJavaSdk(plugin));
  const javaBin = options.java ? [await ensureJavaToolsBin()] : [];
  // The v3.68 Python host ignores runtime.options.virtualenv: the venv's bin comes first instead.
  const path = [
    cli.binDir,
    hosts,
    ...goBin,
    ...javaBin,
    ...venvBin,
    join(REPO_ROOT, "node_modules", ".bin"),
    process.env.PATH ?? "",
  ].join(delimiter);
  const go = goEnv();
  const engine = await offlineEngine({
    env: { PATH: path, GOCACHE: go.GOCACHE ?? "", GOMODCACHE: go.GOMODCACHE ?? "" },
  });
  const env = { ...process.env, ...engine.envVars };
  const pulumi = async (args: string[], cwd: string) =>
    (
      await promisify(execFile)(join(engine.binDir, "pulumi"), [...args, "--non-interactive"], {
        cwd,
        env,
        timeout: 120_000,
      })
    ).stdout;
  execFileSync(
    join(engine.binDir, "pulumi"),
    ["plugin", "install", "resource", "uptime", plugin.version, "--file", plugin.tarball],
    {
      cwd: buildDir,
      env,
      stdio: "ignore",
    },
  );
  const programs: string[] = [];
  return {
    engine,
    plugin,
    pulumi,
    program(name) {
      const source = isAbsolute(name)
        ? name
        : join(REPO_ROOT, name.includes("/") ? name : join("test/engine/programs", name));
      const dir = prepareProgram(source, {});
      programs.push(dir);
      if (sdks && existsSync(join(dir, "go.mod"))) useGoSdk(dir, plugin, sdks);
      if (sdks && existsSync(join(dir, "package.json"))) useNodeSdk(dir, sdks);
      if (options.java && existsSync(join(dir, "pom.xml"))) javaProgramSettings(dir);
      return dir;
    },
    dispose() {
      engine.dispose();
      for (const dir of [buildDir, ...programs]) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Points a Go program's `replace` of the SDK module at the SDK built for this plugin. */
function useGoSdk(dir: string, plugin: PluginBuild, sdks: SdkBuild): void {
  const replace = `-replace=${goModulePath(plugin.schemaPath)}=${join(sdks.dir, "go", "uptime")}`;
  execFileSync("go", ["mod", "edit", replace], { cwd: dir, env: goEnv(), stdio: "inherit" });
}

/**
 * Installs the compiled Node.js SDK into a JavaScript program's node_modules (a copy, so that its
 * `require("@pulumi/pulumi")` finds the program's), beside this checkout's @pulumi/pulumi.
 */
function useNodeSdk(dir: string, sdks: SdkBuild): void {
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "@pulumi"), { recursive: true });
  symlinkSync(join(REPO_ROOT, "node_modules/@pulumi/pulumi"), join(modules, "@pulumi/pulumi"), "dir");
  cpSync(join(sdks.dir, "nodejs", "bin"), join(modules, "@pulumi-uptime/native"), { recursive: true });
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
