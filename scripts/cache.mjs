// The project's build cache: one root folder for everything the build and the tests keep between
// runs (the Pulumi CLI and language hosts, Go's build cache, Python venvs, the native plugin's SDKs,
// Node's compile cache, the packed packages' installs), and one way to fill an entry of it that
// stays correct when several processes (Vitest runs three test files at a time, two checkouts side
// by side) want the same entry at once.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import lockfile from "proper-lockfile";

/**
 * The cache root: `PULUMI_UPTIME_CACHE` when set, else `$XDG_CACHE_HOME/pulumi-uptime`, else
 * `~/.cache/pulumi-uptime`. Removing it is always safe: everything in it is built again on demand.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 */
export function cacheRoot(env = process.env) {
  if (env.PULUMI_UPTIME_CACHE) return env.PULUMI_UPTIME_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-uptime");
}

/**
 * The environment for the project's `go` commands. Go's build cache is the project's: under the
 * cache root whenever `PULUMI_UPTIME_CACHE` is set (a fresh root then means a cold build), else the
 * caller's `GOCACHE` when set. Go's module cache holds only downloads checked against go.sum, so
 * the caller's `GOMODCACHE` is kept when set; without one it lives under the cache root too.
 * @param {NodeJS.ProcessEnv} [base]
 * @returns {NodeJS.ProcessEnv}
 */
export function goEnv(base = process.env) {
  const root = cacheRoot(base);
  return {
    ...base,
    GOCACHE: base.PULUMI_UPTIME_CACHE || !base.GOCACHE ? join(root, "go", "build") : base.GOCACHE,
    GOMODCACHE: base.GOMODCACHE || join(root, "go", "mod"),
  };
}

// A build holds the lock for minutes; proper-lockfile refreshes the lock file's mtime every
// `update` ms while the event loop runs (builds run asynchronously for that reason), and another
// process takes over a lock not refreshed for `stale` ms: the holder crashed or was killed.
const LOCK_OPTIONS = {
  realpath: false,
  stale: 60_000,
  update: 10_000,
  retries: { forever: true, minTimeout: 500, maxTimeout: 5_000, factor: 1.5 },
};

/**
 * Makes the cache entry `dir` unless `ready()` says it is there: under a lock on `dir` (the file
 * `<dir>.lock`), `build` writes the entry into a staging folder beside it, which is then renamed
 * to `dir`. Every process that wants the entry waits for the one that builds it; none ever sees
 * or removes a half-built entry. Entries that cannot move (Python venvs name their own path) use
 * `{ inPlace: true }`: `build` gets `dir` itself, emptied first, and `ready` must check a marker
 * that `build` writes last.
 * @param {string} dir
 * @param {() => boolean} ready
 * @param {(into: string) => Promise<void>} build
 * @param {{ inPlace?: boolean }} [options]
 * @returns {Promise<void>}
 */
export async function buildOnce(dir, ready, build, { inPlace = false } = {}) {
  if (ready()) return;
  await withLock(dir, async () => {
    if (ready()) return;
    const into = inPlace ? dir : `${dir}.tmp-${process.pid}`;
    rmSync(into, { recursive: true, force: true });
    await build(into);
    if (!inPlace) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(into, dir);
    }
    if (!ready()) throw new Error(`building ${dir} finished but left no complete entry`);
  });
}

/**
 * Runs a command without blocking the event loop (the lock above stays fresh); resolves to its
 * trimmed stdout. A failure's error carries the command's stderr (its stdout when stderr is empty:
 * tsc reports there).
 * @param {string} file
 * @param {string[]} args
 * @param {import("node:child_process").ExecFileOptions} [options]
 * @returns {Promise<string>}
 */
export async function run(file, args, options = {}) {
  try {
    const { stdout } = await promisify(execFile)(file, args, {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      ...options,
    });
    return String(stdout).trim();
  } catch (err) {
    const output = (name) => (err && typeof err === "object" && name in err ? String(err[name]).trim() : "");
    const said = output("stderr") || output("stdout");
    throw new Error(`${file} ${args.join(" ")} failed${said ? `:\n${said}` : ""}`, { cause: err });
  }
}

/**
 * Runs `fn` while holding the lock on the cache entry `dir` (the same lock `buildOnce` takes), for
 * changes to an entry that exists: installing a package into a shared venv.
 * @template T
 * @param {string} dir
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withLock(dir, fn) {
  mkdirSync(dirname(dir), { recursive: true });
  let compromised;
  const release = await lockfile.lock(dir, {
    ...LOCK_OPTIONS,
    lockfilePath: `${dir}.lock`,
    onCompromised: (err) => (compromised = err),
  });
  try {
    const result = await fn();
    if (compromised) throw new Error(`lost the lock on ${dir} while changing it: ${compromised.message}`);
    return result;
  } finally {
    if (!compromised) await release();
  }
}

/**
 * A Python venv at `dir` with `packages` from PyPI, made once by `python`, in place (a venv names
 * its own path and cannot be moved). A marker written last tells a finished install from an
 * interrupted one, which is made again.
 * @param {string} dir
 * @param {string} python
 * @param {readonly string[]} packages
 * @returns {Promise<void>}
 */
export async function venvOnce(dir, python, packages) {
  const done = join(dir, ".complete");
  await buildOnce(
    dir,
    () => existsSync(done),
    async (into) => {
      await run(python, ["-m", "venv", into]);
      await run(join(into, "bin", "python"), [
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        ...packages,
      ]);
      writeFileSync(done, `${new Date().toISOString()}\n`);
    },
    { inPlace: true },
  );
}
