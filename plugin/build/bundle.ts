/**
 * Packages the native plugin: one bundled JavaScript file, a launcher named
 * `pulumi-resource-uptime`, the schema it serves, and the tarball that
 * `pulumi plugin install resource uptime <version> --file <tarball>` accepts.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";

/** The repository root (this file is plugin/build/bundle.ts, or its build in dist/). */
export const ROOT = resolve(__dirname, __dirname.includes("/dist/") ? "../../.." : "../..");

/** The plugin version: the provider package's (provider/package.json). */
export const VERSION: string = JSON.parse(readFileSync(join(ROOT, "provider", "package.json"), "utf8")).version;

/** What `bundlePlugin` wrote. */
export interface PluginBuild {
  /** Folder holding `pulumi-resource-uptime` (put it on PATH, or install the tarball). */
  binDir: string;
  /** `schema.json`, read back from the bundle. */
  schemaPath: string;
  /** `pulumi-resource-uptime-v<version>-linux-amd64.tar.gz`. */
  tarball: string;
  version: string;
}

// Runs the bundle with Node >= 22.19 (plugin/node-version.ts says so otherwise): PULUMI_UPTIME_NODE when set, else `node` from PATH.
const LAUNCHER = `#!/bin/sh
# pulumi-resource-uptime: the uptime provider plugin, a bundled Node.js (>= 22.19) program.
exec "\${PULUMI_UPTIME_NODE:-node}" "$(dirname "$0")/pulumi-resource-uptime.js" "$@"
`;

/** Bundles the plugin into `outDir` (default `dist/plugin-package`) and packs its tarball. */
export async function bundlePlugin(outDir = join(ROOT, "dist/plugin-package")): Promise<PluginBuild> {
  const binDir = join(outDir, "bin");
  mkdirSync(binDir, { recursive: true });
  const bundle = join(binDir, "pulumi-resource-uptime.js");
  await build({
    entryPoints: [join(ROOT, "plugin/main.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    minify: false,
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning",
    define: { PLUGIN_VERSION: JSON.stringify(VERSION) },
  });
  const launcher = join(binDir, "pulumi-resource-uptime");
  writeFileSync(launcher, LAUNCHER);
  chmodSync(launcher, 0o755);
  const schemaPath = join(outDir, "schema.json");
  writeFileSync(schemaPath, execFileSync(process.execPath, [bundle, "--schema"], { encoding: "utf8" }));
  const tarball = join(outDir, `pulumi-resource-uptime-v${VERSION}-linux-amd64.tar.gz`);
  execFileSync("tar", ["-czf", tarball, "-C", binDir, "pulumi-resource-uptime", "pulumi-resource-uptime.js"]);
  return { binDir, schemaPath, tarball, version: VERSION };
}
