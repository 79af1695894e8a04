#!/usr/bin/env node
// Ensures a Pulumi CLI that matches the installed @pulumi/pulumi: the user's `pulumi` from PATH
// when compatible, else our cache (keyed by version and by the Go recipe in tools/), else a build
// from the Go module proxy. Prints the folder that holds `pulumi`, `pulumi-language-nodejs` and
// `pulumi-resource-pulumi-nodejs` as its last line; `--json` prints a JSON object instead.
// Also builds, into a cache entry of their own, what the native plugin's programs and SDKs need:
// the YAML and Python language hosts and the SDK generator (tools/uptime-sdkgen), and the Go
// language host (tools/pulumi-language-go) in an entry of its own, and the Java language host and
// Java SDK generator (tools/pulumi-language-java, a Go module of its own) in another.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildOnce, cacheRoot, goEnv, run as runAsync } from "./cache.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TOOLS = join(ROOT, "tools");
const BINARIES = ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"];
const INSTALL_HELP =
  "Install the Pulumi CLI (https://www.pulumi.com/docs/install/) and put it on PATH, " +
  "or install Go >= 1.25 so that `npm run pulumi:ensure` can build it from the Go module proxy.";

/** The @pulumi/pulumi version this checkout depends on: the CLI must match it. */
export function sdkVersion() {
  const pkg = JSON.parse(readFileSync(join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8"));
  return pkg.version;
}

function parseVersion(text) {
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? m.slice(1, 4).map(Number) : undefined;
}

function atLeast(have, want) {
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) return have[i] > want[i];
  return true;
}

function run(file, args, options = {}) {
  return execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options }).trim();
}

function which(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The user's own CLI, when it is the same major version and not older than the SDK. */
function fromPath(version) {
  const pulumi = which("pulumi");
  if (!pulumi || !which("pulumi-language-nodejs")) return undefined;
  let have;
  try {
    have = parseVersion(run(pulumi, ["version"]));
  } catch {
    return undefined;
  }
  const want = parseVersion(version);
  if (!have || have[0] !== want[0] || !atLeast(have, want)) return undefined;
  return dirname(pulumi);
}

/** Cache folder: outside the clone (scripts/cache.mjs), keyed by version and by the exact Go recipe. */
const cacheBase = () => cacheRoot();

/**
 * The environment of every Go build here: the recipes' go.sum as written (-mod=readonly), and the
 * Go build and module caches of scripts/cache.mjs, shared with the Go SDK's and Go programs'
 * builds (plugin/build/go.ts), so nothing is compiled or downloaded twice.
 */
function goBuildEnv() {
  return { ...goEnv(), GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=readonly`.trim() };
}

/**
 * The arguments of one `go build` here. Every binary is linked without its symbol table and DWARF
 * (`-s -w`): nothing here runs them under a debugger, panics still print their stacks (from the
 * pclntab, which stays), and the link of the CLI takes 8 CPU seconds instead of 13 (115 MB instead
 * of 161). The compile flags stay Go's defaults, so the packages compiled for the CLI are those the
 * Go programs' builds find in the shared build cache.
 * @param {string} out the binary's path
 * @param {string} pkg the package to build
 * @param {string} [ldflags] further linker flags
 */
function goBuildArgs(out, pkg, ldflags = "") {
  return ["build", "-ldflags", `-s -w ${ldflags}`.trim(), "-o", out, pkg];
}

/**
 * Adds to `hash` the Go sources of a module of this project's own (tools/<mod>/*.go), by name:
 * a host's own code, or code the tools share (tools/genfiles, taken in by a `replace`).
 */
function hashGoSources(hash, mod) {
  for (const file of readdirSync(join(TOOLS, mod))
    .filter((f) => f.endsWith(".go"))
    .sort()) {
    hash.update(`${mod}/${file}\0`).update(readFileSync(join(TOOLS, mod, file)));
  }
}

/** Adds to `hash` a shared module of this project's own: its go.mod, its go.sum (if any) and its sources. */
function hashOwnModule(hash, mod) {
  for (const file of ["go.mod", "go.sum"]) {
    const path = join(TOOLS, mod, file);
    if (existsSync(path)) hash.update(`${mod}/${file}\0`).update(readFileSync(path));
  }
  hashGoSources(hash, mod);
}

function cacheDir(version) {
  const hash = createHash("sha256");
  for (const mod of ["pulumi-cli", "pulumi-language-nodejs"]) {
    for (const file of ["go.mod", "go.sum"]) hash.update(readFileSync(join(TOOLS, mod, file)));
  }
  // The Node language host is this project's own source (tools/pulumi-language-nodejs/*.go).
  hashGoSources(hash, "pulumi-language-nodejs");
  return join(cacheBase(), "pulumi-cli", `v${version}-${hash.digest("hex").slice(0, 12)}`);
}

function cachedBin(dir, version) {
  const bin = join(dir, "bin");
  if (!BINARIES.every((b) => existsSync(join(bin, b)))) return undefined;
  try {
    return run(join(bin, "pulumi"), ["version"]) === `v${version}` ? bin : undefined;
  } catch {
    return undefined;
  }
}

/** Builds the CLI into `staging` (scripts/cache.mjs renames it to `dir` when done). */
async function build(staging, dir, version) {
  const go = which("go");
  if (!go) throw new Error(`No compatible Pulumi CLI and no Go toolchain to build one. ${INSTALL_HELP}`);
  const bin = join(staging, "bin");
  mkdirSync(bin, { recursive: true });
  const started = Date.now();
  process.stderr.write(`Building Pulumi CLI v${version} with Go into ${dir} (first run only)...\n`);
  // One build after the other, asynchronously: the cache lock stays fresh meanwhile.
  let builds = Promise.resolve("");
  const goBuild = (mod, out, pkg, ldflags = "") => {
    builds = builds.then(() =>
      runAsync(go, goBuildArgs(join(bin, out), pkg, ldflags), { cwd: join(TOOLS, mod), env: goBuildEnv() }),
    );
  };
  goBuild(
    "pulumi-cli",
    "pulumi",
    "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
    `-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`,
  );
  goBuild("pulumi-language-nodejs", "pulumi-language-nodejs", ".");
  await builds;
  // The dynamic-provider plugin is a shell script shipped inside the @pulumi/pulumi package.
  const plugin = join(bin, "pulumi-resource-pulumi-nodejs");
  copyFileSync(join(ROOT, "node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"), plugin);
  chmodSync(plugin, 0o755);
  process.stderr.write(`Built Pulumi CLI in ${Math.round((Date.now() - started) / 1000)} s.\n`);
}

/**
 * Finds or builds the Pulumi CLI (once, however many processes ask at the same time).
 * @returns {Promise<{ binDir: string, version: string, source: "path" | "cache" | "build" }>}
 */
export async function ensurePulumi() {
  const version = sdkVersion();
  const onPath = process.env.PULUMI_UPTIME_IGNORE_PATH ? undefined : fromPath(version);
  if (onPath) return { binDir: onPath, version, source: "path" };
  const dir = cacheDir(version);
  const cached = cachedBin(dir, version);
  if (cached) return { binDir: cached, version, source: "cache" };
  await buildOnce(
    dir,
    () => cachedBin(dir, version) !== undefined,
    (staging) => build(staging, dir, version),
  );
  return { binDir: join(dir, "bin"), version, source: "build" };
}

const HOSTS = {
  "pulumi-language-yaml": ["pulumi-language-yaml", "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"],
  "pulumi-language-python": [
    "pulumi-language-python",
    "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python",
  ],
  "uptime-sdkgen": ["uptime-sdkgen", "."],
};
const HOST_BINARIES = [...Object.keys(HOSTS), "pulumi-language-python-exec"];

/** Cache folder of the language hosts and SDK generator, keyed by their Go recipes alone. */
function hostsCacheDir() {
  const hash = createHash("sha256");
  for (const mod of Object.keys(HOSTS)) {
    for (const file of ["go.mod", "go.sum", "tools.go", "main.go"]) {
      const path = join(TOOLS, mod, file);
      if (existsSync(path)) hash.update(`${mod}/${file}\0`).update(readFileSync(path));
    }
  }
  hashOwnModule(hash, "genfiles");
  return join(cacheBase(), "pulumi-hosts", hash.digest("hex").slice(0, 12));
}

/** Builds the hosts into `staging` (scripts/cache.mjs renames it to `dir` when done). */
async function buildHosts(staging, dir) {
  const go = which("go");
  if (!go) throw new Error(`No Go toolchain to build the YAML and Python language hosts. ${INSTALL_HELP}`);
  const bin = join(staging, "bin");
  mkdirSync(bin, { recursive: true });
  const started = Date.now();
  process.stderr.write(`Building the YAML and Python language hosts and the SDK generator into ${dir}...\n`);
  const env = goBuildEnv();
  for (const [mod, [out, pkg]] of Object.entries(HOSTS)) {
    await runAsync(go, goBuildArgs(join(bin, out), pkg), { cwd: join(TOOLS, mod), env });
  }
  // The v3.68 Python host runs programs through this script from the same SDK module.
  const sdk = await runAsync(go, ["list", "-m", "-f", "{{.Dir}}", "github.com/pulumi/pulumi/sdk/v3"], {
    cwd: join(TOOLS, "pulumi-language-python"),
    env,
  });
  const exec = join(bin, "pulumi-language-python-exec");
  copyFileSync(join(sdk, "python/cmd/pulumi-language-python-exec"), exec);
  chmodSync(exec, 0o755);
  process.stderr.write(`Built the language hosts in ${Math.round((Date.now() - started) / 1000)} s.\n`);
}

/**
 * Finds or builds the YAML and Python language hosts and the SDK generator (cached apart from
 * the CLI, so adding them never rebuilds it; built once, however many processes ask).
 * @returns {Promise<{ binDir: string, source: "cache" | "build" }>}
 */
export async function ensureHosts() {
  const dir = hostsCacheDir();
  const bin = join(dir, "bin");
  const ready = () => HOST_BINARIES.every((b) => existsSync(join(bin, b)));
  if (ready()) return { binDir: bin, source: "cache" };
  await buildOnce(dir, ready, (staging) => buildHosts(staging, dir));
  return { binDir: bin, source: "build" };
}

/** The Go language host (tools/pulumi-language-go): a cache entry of its own, keyed by its recipe. */
function goHostCacheDir() {
  const hash = createHash("sha256");
  for (const file of ["go.mod", "go.sum", "main.go"])
    hash.update(`${file}\0`).update(readFileSync(join(TOOLS, "pulumi-language-go", file)));
  return join(cacheBase(), "pulumi-language-go", hash.digest("hex").slice(0, 12));
}

/**
 * Finds or builds the Go language host (cached apart from the CLI and the other hosts, so adding
 * it rebuilt neither; built once, however many processes ask).
 * @returns {Promise<{ binDir: string, source: "cache" | "build" }>}
 */
export async function ensureGoHost() {
  const dir = goHostCacheDir();
  const bin = join(dir, "bin");
  const ready = () => existsSync(join(bin, "pulumi-language-go"));
  if (ready()) return { binDir: bin, source: "cache" };
  const go = which("go");
  if (!go) throw new Error(`No Go toolchain to build the Go language host. ${INSTALL_HELP}`);
  await buildOnce(dir, ready, async (staging) => {
    mkdirSync(join(staging, "bin"), { recursive: true });
    process.stderr.write(`Building the Go language host into ${dir}...\n`);
    await runAsync(go, goBuildArgs(join(staging, "bin", "pulumi-language-go"), "."), {
      cwd: join(TOOLS, "pulumi-language-go"),
      env: goBuildEnv(),
    });
  });
  return { binDir: bin, source: "build" };
}

/** What tools/pulumi-language-java builds: the Java language host and the Java SDK generator. */
const JAVA_TOOLS = {
  "pulumi-language-java": "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java",
  "uptime-sdkgen-java": "./uptime-sdkgen-java",
};

/** The Java tools' cache entry, keyed by their recipe (go.mod, go.sum and the generator's source). */
function javaToolsCacheDir() {
  const dir = join(TOOLS, "pulumi-language-java");
  const hash = createHash("sha256");
  for (const file of ["go.mod", "go.sum", "tools.go", "uptime-sdkgen-java/main.go"])
    hash.update(`${file}\0`).update(readFileSync(join(dir, file)));
  hashOwnModule(hash, "genfiles");
  return join(cacheBase(), "pulumi-language-java", hash.digest("hex").slice(0, 12));
}

/**
 * Finds or builds the Java language host (pulumi-java's `pulumi-language-java`) and the Java SDK
 * generator (`uptime-sdkgen-java`), from github.com/pulumi/pulumi-java/pkg at the version that
 * tools/pulumi-language-java/go.mod pins: a cache entry of its own, built once, however many
 * processes ask. The checksum database has no entry for that module (it answers 404), so the
 * build skips it for that module alone (GONOSUMDB); go.sum still pins every module's hash.
 * @returns {Promise<{ binDir: string, source: "cache" | "build" }>}
 */
export async function ensureJavaTools() {
  const dir = javaToolsCacheDir();
  const bin = join(dir, "bin");
  const ready = () => Object.keys(JAVA_TOOLS).every((b) => existsSync(join(bin, b)));
  if (ready()) return { binDir: bin, source: "cache" };
  const go = which("go");
  if (!go) throw new Error(`No Go toolchain to build the Java language host. ${INSTALL_HELP}`);
  const noSum = [process.env.GONOSUMDB, "github.com/pulumi/pulumi-java"].filter(Boolean).join(",");
  const env = { ...goBuildEnv(), GONOSUMDB: noSum };
  await buildOnce(dir, ready, async (staging) => {
    mkdirSync(join(staging, "bin"), { recursive: true });
    const started = Date.now();
    process.stderr.write(`Building the Java language host and SDK generator into ${dir}...\n`);
    for (const [out, pkg] of Object.entries(JAVA_TOOLS)) {
      await runAsync(go, goBuildArgs(join(staging, "bin", out), pkg), {
        cwd: join(TOOLS, "pulumi-language-java"),
        env,
      });
    }
    process.stderr.write(`Built the Java tools in ${Math.round((Date.now() - started) / 1000)} s.\n`);
  });
  return { binDir: bin, source: "build" };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const found = await ensurePulumi();
    const hosts = await ensureHosts();
    const goHost = await ensureGoHost();
    const java = await ensureJavaTools();
    if (process.argv.includes("--json"))
      console.log(JSON.stringify({ ...found, hostsDir: hosts.binDir, goHostDir: goHost.binDir, javaDir: java.binDir }));
    else {
      process.stderr.write(`Language hosts and SDK generator (${hosts.source}): ${hosts.binDir}\n`);
      process.stderr.write(`Go language host (${goHost.source}): ${goHost.binDir}\n`);
      process.stderr.write(`Java language host and SDK generator (${java.source}): ${java.binDir}\n`);
      process.stderr.write(`Pulumi CLI v${found.version} (${found.source}):\n`);
      console.log(found.binDir);
    }
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
