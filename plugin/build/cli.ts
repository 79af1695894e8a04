/**
 * `npm run plugin:build`: the plugin bundle, launcher, schema and tarball in dist/plugin-package;
 * with `--sdks`, also the Python wheel and the Go and Node.js SDK sources beside them.
 */
import { bundlePlugin } from "./bundle";
import { loadEnsure } from "./python";
import { buildSdks } from "./sdks";

async function run(): Promise<void> {
  const plugin = await bundlePlugin();
  console.log(`plugin v${plugin.version}: ${plugin.tarball}`);
  if (process.argv.includes("--sdks")) {
    await loadEnsure();
    const sdks = buildSdks(plugin);
    console.log(`SDKs: ${sdks.dir}\nPython wheel: ${sdks.wheel}`);
  }
}

run().catch((err: unknown) => {
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
