/**
 * `npm run plugin:build`: the plugin bundle, launcher, schema and tarball in dist/plugin-package;
 * with `--sdks`, also the SDKs in dist/plugin-package/sdk (`python`, `go`, `nodejs`, `wheels`),
 * where examples/native-go's `replace` directive finds the Go module, and `java` (sources, pom.xml
 * and the jar, installed into the project's Maven repository, plugin/build/java.ts); with `--release`, the release
 * tarballs for every platform (single executables on Linux) in dist/plugin-package/release.
 */
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { bundlePlugin } from "./bundle";
import { buildJavaSdk, installJavaSdk } from "./java";
import { buildSdks } from "./sdks";
import { releaseTarballs } from "./sea";

async function run(): Promise<void> {
  const plugin = await bundlePlugin();
  console.log(`plugin v${plugin.version}: ${plugin.tarball}`);
  if (process.argv.includes("--sdks")) {
    const sdks = await buildSdks(plugin);
    const out = join(plugin.binDir, "..", "sdk");
    rmSync(out, { recursive: true, force: true });
    cpSync(sdks.dir, out, { recursive: true });
    console.log(`SDKs: ${out}\nPython wheel: ${sdks.wheel}`);
    const java = await buildJavaSdk(plugin);
    cpSync(java.dir, join(out, "java"), { recursive: true });
    console.log(
      `Java SDK: ${join(out, "java")} (com.pulumi:uptime:${java.version}, installed in ${await installJavaSdk(java)})`,
    );
  }
  if (process.argv.includes("--release")) {
    const out = join(plugin.binDir, "..", "release");
    mkdirSync(out, { recursive: true });
    for (const [platform, tarball] of Object.entries(await releaseTarballs(plugin, out)))
      console.log(`${platform}: ${tarball}`);
  }
}

run().catch((err: unknown) => {
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
