/**
 * The native plugin's SDKs, generated from the schema the bundle serves by tools/uptime-sdkgen
 * (Pulumi's own code generators), and cached outside the clone by the hashes of the schema and the
 * generator: Python (plus a wheel), Go (a module, vetted and built) and Node.js (compiled with tsc).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PluginBuild } from "./bundle";
import { buildOnce, cacheRoot, run } from "./cache";
import { makeGoModule } from "./go";
import { compileNodeSdk } from "./nodejs";
import { ensureHostsBin, python } from "./python";

/**
 * Where the SDKs are: `<dir>/python`, `<dir>/go/uptime` (a Go module, vetted and built),
 * `<dir>/nodejs` (compiled: the package is `<dir>/nodejs/bin`), and the wheel.
 */
export interface SdkBuild {
  dir: string;
  /** The `pulumi_uptime-<version>-py3-none-any.whl` that `pip install` takes. */
  wheel: string;
}

const RECIPE = "go-module,nodejs-bin";

const findWheel = (dir: string) => readdirSync(dir).find((f) => f.endsWith(".whl"));

/** Generates (or finds cached) SDKs for this plugin build's schema: once, however many processes ask. */
export async function buildSdks(plugin: PluginBuild): Promise<SdkBuild> {
  const schema = readFileSync(plugin.schemaPath);
  // The generator's folder is named by the hash of its sources: a changed generator regenerates.
  const generator = join(await ensureHostsBin(), "uptime-sdkgen");
  // RECIPE changes the key when the steps below change for the same schema.
  const hash = createHash("sha256").update(RECIPE).update(generator).update(schema).digest("hex").slice(0, 12);
  const dir = join(cacheRoot(), "sdks", `v${plugin.version}-${hash}`);
  const wheels = join(dir, "wheels");
  await buildOnce(
    dir,
    () => existsSync(wheels) && findWheel(wheels) !== undefined,
    async (staging) => {
      await run(generator, [plugin.schemaPath, staging, "python", "go", "nodejs"]);
      await makeGoModule(join(staging, "go", "uptime"), plugin.schemaPath);
      await compileNodeSdk(join(staging, "nodejs"));
      // The wheel is built without network access to a build backend: setuptools from the venv.
      const py = await python();
      await run(py, [
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        join(staging, "wheels"),
        join(staging, "python"),
      ]);
    },
  );
  const wheel = findWheel(wheels);
  if (!wheel) throw new Error(`no wheel was built in ${wheels}`);
  return { dir, wheel: join(wheels, wheel) };
}
