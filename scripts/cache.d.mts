import type { ExecFileOptions } from "node:child_process";
/** The cache root: PULUMI_UPTIME_CACHE, else $XDG_CACHE_HOME/pulumi-uptime, else ~/.cache/pulumi-uptime. */
export function cacheRoot(env?: NodeJS.ProcessEnv): string;
/** The environment for the project's `go` commands: Go's build (and, unless set, module) cache under the cache root. */
export function goEnv(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
/** Makes the cache entry `dir` once under a lock shared by every process that wants it. */
export function buildOnce(
  dir: string,
  ready: () => boolean,
  build: (into: string) => Promise<void>,
  options?: { inPlace?: boolean },
): Promise<void>;
/** Runs `fn` while holding the lock on the cache entry `dir`. */
export function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T>;
/** Runs a command without blocking the event loop; resolves to its trimmed stdout. */
export function run(file: string, args: string[], options?: ExecFileOptions): Promise<string>;
/** A Python venv at `dir` with `packages` from PyPI, made once by `python`, in place. */
export function venvOnce(dir: string, python: string, packages: readonly string[]): Promise<void>;
