/**
 * The project's build cache (scripts/cache.mjs: the root folder, Go's environment, entries built
 * once under a lock) for the TypeScript build code. scripts/cache.mjs is an ES module that the
 * plain-Node scripts (`npm run pulumi:ensure`) use too; this CommonJS build loads it with
 * `require`, which Node >= 22.12 allows for ES modules without top-level await. Once the build
 * compiles as ES modules (tsconfig `module: node20` or later), import it directly and delete this file.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { ROOT } from "./bundle";

type CacheModule = typeof import("../../scripts/cache.mjs", { with: { "resolution-mode": "import" } });

const cache = createRequire(__filename)(join(ROOT, "scripts", "cache.mjs")) as CacheModule;

/** The cache root: `PULUMI_UPTIME_CACHE`, else `$XDG_CACHE_HOME/pulumi-uptime`, else `~/.cache/pulumi-uptime`. */
export const cacheRoot: CacheModule["cacheRoot"] = cache.cacheRoot;
/** The environment for `go` commands: Go's build cache (and, unless set, its module cache) under the cache root. */
export const goEnv: CacheModule["goEnv"] = cache.goEnv;
/** Makes a cache entry once, under a lock shared by every process that wants it. */
export const buildOnce: CacheModule["buildOnce"] = cache.buildOnce;
/** Runs a function while holding the lock on a cache entry. */
export const withLock: CacheModule["withLock"] = cache.withLock;
/** Runs a command without blocking the event loop; resolves to its trimmed stdout. */
export const run: CacheModule["run"] = cache.run;
/** A Python venv with these packages from PyPI, made once, in place. */
export const venvOnce: CacheModule["venvOnce"] = cache.venvOnce;
