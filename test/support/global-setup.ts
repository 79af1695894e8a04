import type { TestProject } from "vitest/node" with { "resolution-mode": "import" };
import { existsSync, lstatSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { delimiter, join } from "node:path";
import { type PrivatePostgres, startPostgres } from "../../scripts/private-postgres";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { prepareSharedArtifacts } from "./shared-artifacts";

declare module "vitest" {
  export interface ProvidedContext {
    /** node_modules with the packed pulumi-uptime installed, for engine test programs. */
    packedModules: string;
    /** The Chromium the status page's browser test drives (found or installed by ensure-chromium). */
    chromiumPath: string;
    /** A URL of the run's shared PostgreSQL (see `sharedPostgres`), where each file makes its own databases; "" for none. */
    postgresUrl: string;
  }
}

/**
 * Before any test: finds (or installs) Chromium, ping and PostgreSQL, then builds (or finds in the cache) every artifact
 * the test files share (./shared-artifacts.ts), among them this package installed from its own
 * `npm pack` tarball for the engine tests' programs. Chromium comes first: without root it fails
 * at once with the command to run, not after a CLI build.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const { ensureChromium } = await import("../../scripts/ensure-chromium.mjs");
  const chromium = ensureChromium();
  process.stderr.write(`${chromium.version} (${chromium.source}): ${chromium.path}\n`);
  project.provide("chromiumPath", chromium.path);
  // Ping monitors run the system's ping: found, or installed as Chromium is.
  const { ensurePing } = await import("../../scripts/ensure-ping.mjs");
  const ping = ensurePing();
  process.stderr.write(`ping (${ping.source}): ${ping.path}\n`);
  // `npm run test:fast` and `npm run fuzz` run no engine test and nothing on PostgreSQL: no CLI,
  // no packed install (Schemathesis makes its venv on demand).
  if (process.env.UPTIME_TESTS === "fast" || process.env.UPTIME_TESTS === "fuzz") {
    project.provide("packedModules", "");
    project.provide("postgresUrl", "");
    return undefined;
  }
  // The PostgreSQL store tests start servers of their own from these binaries.
  const { ensurePostgres } = await import("../../scripts/ensure-postgres.mjs");
  process.stderr.write(`PostgreSQL (${ensurePostgres().source})\n`);
  const postgres = await sharedPostgres();
  project.provide("postgresUrl", postgres.url);
  const shared = await prepareSharedArtifacts();
  project.provide("packedModules", shared.packedModules);
  linkExampleModules(shared.packedModules);
  // Tests that drive the engine the way users do (examples/*/test) find `pulumi` on PATH.
  process.env.PATH = `${shared.cliBinDir}${delimiter}${process.env.PATH ?? ""}`;
  return postgres.release;
}

/** The run's PostgreSQL and the projects using it (each project that names this set-up runs it). */
const SHARED = Symbol.for("pulumi-uptime.test.sharedPostgres");
type Shared = { server: Promise<PrivatePostgres>; users: number };

/**
 * One PostgreSQL server for the whole run, started by the first project's set-up and stopped when the
 * last one's teardown releases it (or, at the latest, when this process exits). Every server test file
 * on PostgreSQL creates its databases there (test/support/store-engines.ts) rather than start a server
 * of its own: an `initdb`, a start and a stop (about two CPU seconds and four of waiting) per file.
 * The tests that stop or kill PostgreSQL (the replica failover tests) still start their own.
 */
async function sharedPostgres(): Promise<{ url: string; release: () => void }> {
  const holder = globalThis as { [SHARED]?: Shared };
  const shared = (holder[SHARED] ??= {
    // Five files at a time, each with several servers and their pools, and replicas in pairs.
    server: startPostgres({ settings: ["max_connections=600"] }),
    users: 0,
  });
  shared.users++;
  const server = await shared.server;
  let released = false;
  return {
    url: server.url(),
    release: () => {
      if (released) return;
      released = true;
      if (--shared.users > 0) return;
      delete holder[SHARED];
      server.stop();
    },
  };
}

/** Examples with their own tests get the packed package as their node_modules, as after `npm install`. */
function linkExampleModules(packed: string): void {
  for (const example of ["testing-kit"]) {
    const at = join(REPO_ROOT, "examples", example, "node_modules");
    if (existsSync(at) && lstatSync(at).isSymbolicLink() && readlinkSync(at) === packed) continue;
    rmSync(at, { recursive: true, force: true });
    symlinkSync(packed, at, "dir");
  }
}
