/**
 * Everything the test files share from the project's cache (scripts/cache.mjs), prepared once by
 * the global set-up before any test file starts: the Pulumi CLI, the language hosts, the packed
 * packages' install, the native plugin's SDKs (the Java one installed into the project's Maven
 * repository), the Python venvs and Schemathesis. Each is also
 * safe to build from a test file (every cache entry is built under a lock), but building them here
 * keeps a cold cache's build time out of the tests' own time limits, and makes it one figure.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { bundlePlugin } from "../../plugin/build/bundle";
import { buildJavaSdk, installJavaSdk } from "../../plugin/build/java";
import { loadEnsure, mypyWith, python, venvWith } from "../../plugin/build/python";
import { buildSdks } from "../../plugin/build/sdks";
import { installPackedPackage } from "../../scripts/packed";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

/** What the global set-up hands on to the test files. */
export interface SharedArtifacts {
  /** Folder holding `pulumi`, `pulumi-language-nodejs` and the dynamic-provider plugin. */
  cliBinDir: string;
  /** node_modules with the packed pulumi-uptime installed, for engine test programs. */
  packedModules: string;
}

/** One step of the set-up, as test-artifacts/set-up.json holds it. */
interface SetUpStep {
  name: string;
  /** Seconds from the set-up's start to the step's start, and the step's own seconds. */
  startedAtSec: number;
  sec: number;
  /** The 1-minute load average when the step ended. */
  load: number;
}

let setUpStarted = Date.now();
const steps: SetUpStep[] = [];

/** Runs `step`, printing how long it took and recording it for test-artifacts/set-up.json. */
async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await step();
  const sec = Math.round((Date.now() - started) / 100) / 10;
  steps.push({ name, startedAtSec: Math.round((started - setUpStarted) / 100) / 10, sec, load: loadavg()[0] ?? 0 });
  process.stderr.write(`set-up: ${name} ready in ${sec.toFixed(1)} s\n`);
  return result;
}

/**
 * Leaves the set-up's steps in test-artifacts/set-up.json, beside the tests' durations.json: those
 * of the run's first project, the one that builds (the others' set-ups find everything cached).
 */
function writeSetUpTimes(totalSec: number): void {
  if (process.env.UPTIME_SET_UP_TIMED) return;
  process.env.UPTIME_SET_UP_TIMED = "1";
  const dir = join(REPO_ROOT, "test-artifacts");
  mkdirSync(dir, { recursive: true });
  const cache = process.env.PULUMI_UPTIME_CACHE ?? "(default)";
  writeFileSync(join(dir, "set-up.json"), `${JSON.stringify({ totalSec, cache, steps }, null, 1)}\n`);
}

/**
 * Builds (or finds in the cache) every shared artifact. The Go builds and the downloads (PyPI, the
 * npm registry) run side by side: one is CPU, the other mostly network.
 */
export async function prepareSharedArtifacts(): Promise<SharedArtifacts> {
  const started = Date.now();
  setUpStarted = started;
  steps.length = 0;
  const ensure = await loadEnsure();
  // One Go build after the other: each already keeps both cores busy (see docs/development.md).
  const goBuilds = timed("Pulumi CLI, language hosts and SDK generator", async () => {
    const cli = await timed("Go: Pulumi CLI and Node.js language host", () => ensure.ensurePulumi());
    await timed("Go: YAML and Python language hosts, SDK generator", () => ensure.ensureHosts());
    await timed("Go: Go language host", () => ensure.ensureGoHost());
    await timed("Go: Java language host and SDK generator", () => ensure.ensureJavaTools());
    return cli;
  });
  const packed = timed("packed packages installed", () => installPackedPackage());
  const schemathesis = timed("Schemathesis venv", async () => {
    const { ensureSchemathesis } = await import("../../scripts/ensure-schemathesis.mjs");
    return ensureSchemathesis();
  });
  const venv = timed("Python SDK venv", () => python());
  const [cli] = await Promise.all([goBuilds, venv]);
  const work = mkdtempSync(join(tmpdir(), "pulumi-uptime-setup-"));
  try {
    const plugin = await bundlePlugin(join(work, "plugin"));
    // The Java SDK (Maven, mostly downloads on a cold cache) beside the others (Go and tsc, CPU).
    await Promise.all([
      timed("native plugin SDKs", () => buildSdks(plugin)).then((sdks) =>
        timed("SDK wheel in the Python venvs", () => Promise.all([venvWith(sdks.wheel), mypyWith(sdks.wheel)])),
      ),
      timed("Java SDK in the Maven repository", async () => installJavaSdk(await buildJavaSdk(plugin))),
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const [packedModules] = await Promise.all([packed, schemathesis]);
  const totalSec = Math.round((Date.now() - started) / 100) / 10;
  process.stderr.write(`set-up: shared artifacts ready in ${totalSec.toFixed(1)} s\n`);
  writeSetUpTimes(totalSec);
  return { cliBinDir: cli.binDir, packedModules };
}
