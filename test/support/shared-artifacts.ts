/**
 * Everything the test files share from the project's cache (scripts/cache.mjs), prepared once by
 * the global set-up before any test file starts: the Pulumi CLI, the language hosts, the packed
 * packages' install, the native plugin's SDKs (the Java one installed into the project's Maven
 * repository), the Python venvs and Schemathesis. Each is also
 * safe to build from a test file (every cache entry is built under a lock), but building them here
 * keeps a cold cache's build time out of the tests' own time limits, and makes it one figure.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundlePlugin } from "../../plugin/build/bundle";
import { buildJavaSdk, installJavaSdk } from "../../plugin/build/java";
import { loadEnsure, mypyWith, python, venvWith } from "../../plugin/build/python";
import { buildSdks } from "../../plugin/build/sdks";
import { installPackedPackage } from "../../scripts/packed";

/** What the global set-up hands on to the test files. */
export interface SharedArtifacts {
  /** Folder holding `pulumi`, `pulumi-language-nodejs` and the dynamic-provider plugin. */
  cliBinDir: string;
  /** node_modules with the packed pulumi-uptime installed, for engine test programs. */
  packedModules: string;
}

/** Runs `step`, printing how long it took. */
async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await step();
  process.stderr.write(`set-up: ${name} ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

/**
 * Builds (or finds in the cache) every shared artifact. The Go builds and the downloads (PyPI, the
 * npm registry) run side by side: one is CPU, the other mostly network.
 */
export async function prepareSharedArtifacts(): Promise<SharedArtifacts> {
  const started = Date.now();
  const ensure = await loadEnsure();
  const goBuilds = timed("Pulumi CLI, language hosts and SDK generator", async () => {
    const cli = await ensure.ensurePulumi();
    await ensure.ensureHosts();
    await ensure.ensureGoHost();
    await ensure.ensureJavaTools();
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
  process.stderr.write(`set-up: shared artifacts ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return { cliBinDir: cli.binDir, packedModules };
}
