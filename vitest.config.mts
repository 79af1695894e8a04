import { join } from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { cacheRoot } from "./scripts/cache.mjs";

// Every test starts Node processes by the hundred (Pulumi programs, dynamic-provider plugins, the
// CLI of this package), each loading @pulumi/pulumi and TypeScript. Node's on-disk compile cache
// (keyed by file content) cuts that load by a third to a half; children inherit the setting. It
// lives in the project's cache (PULUMI_UPTIME_CACHE, when set, wins over NODE_COMPILE_CACHE).
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
if (process.env.PULUMI_UPTIME_CACHE || !process.env.NODE_COMPILE_CACHE) {
  process.env.NODE_COMPILE_CACHE = join(cacheRoot(), "node-compile-cache");
}

/**
 * Tests that measure time (scheduler lag, slow clients, rate-limit pacing, shutdown within a
 * bound): after the engine tests and the other suites, two files at a time on two cores.
 */
const TIMED = [
  "test/server/checker/**/*.test.ts",
  "test/server/agents/**/*.test.ts",
  "test/server/slow-clients.test.ts",
  // Stops the server between a trigger and its first reminder (3 s apart): late under load.
  "test/server/reminders.test.ts",
  "test/server/ops/**/*.test.ts",
  // Kill replicas under load and measure how soon checks are taken over.
  "test/server/replicas/**/*.test.ts",
  // A monitor's change must show on its status page within one check interval.
  "test/server/status/freshness.test.ts",
  "test/provider/rate-budget.test.ts",
  "test/provider/connection-change.test.ts",
  "test/provider/client.test.ts",
];

/**
 * Timed suites that run last, after the other timed suites: the failover test (how soon a killed
 * replica's checks are taken over: it keeps a core busy with 2,000 monitors) on one worker, and beside
 * it the browser suites one after another (Chromium, with timeouts of seconds, ran out of time beside
 * another browser suite or the other timed suites).
 */
const TIMED_SOLO = [
  "test/server/checker/browser-sandbox.test.ts",
  "test/server/replicas/failover.test.ts",
  // Chromium runs with timeouts of seconds: two suites of them at once (and their spare sandboxes) ran out of time.
  "test/server/checker/browser.test.ts",
  "test/server/checker/browser-isolation.test.ts",
  "test/server/checker/browser-own-api.test.ts",
  "test/server/agents/browser-agent.test.ts",
];

/**
 * Timed server suites whose PostgreSQL run would prove nothing the SQLite run does not: they time the
 * checker's protocols, the browser's sandbox and slow HTTP clients, and reach the store only through the
 * same result recording that the checker, confirm, retry, agents, reminders and drain suites run on
 * PostgreSQL.
 */
const TIMED_STORE_FREE = [
  "test/server/checker/browser-sandbox.test.ts",
  "test/server/checker/browser-own-api.test.ts",
  "test/server/checker/browser-isolation.test.ts",
  "test/server/checker/dns.test.ts",
  "test/server/checker/network.test.ts",
  "test/server/checker/protocols.test.ts",
  "test/server/checker/tls.test.ts",
  "test/server/checker/body-limit.test.ts",
  "test/server/checker/answer-classes.test.ts",
  "test/server/agents/target-policy.test.ts",
  "test/server/slow-clients.test.ts",
];

/**
 * Server suites the postgres project leaves out: those about SQLite's files themselves (crash
 * safety of the file, secrets in the file and its WAL, file backups, a SQLite fixture), the API
 * fuzzer (many minutes, and about the API, not the engine), and suites that run every engine
 * themselves (the store suites, the replica tests), and those of a server process of their own
 * (`uptime-server serve` on SQLite: the secret spellings).
 */
const SQLITE_ONLY = [
  "test/server/store/**/*.test.ts",
  "test/server/persistence.test.ts",
  "test/server/secrets.test.ts",
  "test/server/ops/backup.test.ts",
  "test/server/store/migration-degraded.test.ts",
  "test/server/schemathesis.test.ts",
  "test/server/schemathesis-report.test.ts",
  "test/server/replicas/**/*.test.ts",
  "test/server/secret-spellings.test.ts",
  // Two replicas on a PostgreSQL database of its own, whichever project runs it.
  "test/server/status/incident-rules-replicas.test.ts",
  // Runs `uptime-server serve` on a SQLite file of its own: the mail relay settings, not the engine.
  "test/server/status/serve-mail.test.ts",
];

/**
 * Server suites that never open the store the postgres projects choose (no `startServer`, no
 * checker rig, no `freshDatabase`): pure logic, a child process on a file of its own, or the test
 * kit's in-memory server. On PostgreSQL they would run the very same code a second time.
 */
const STORE_FREE = [
  "test/server/bin.test.ts",
  "test/server/checker/assertions.test.ts",
  "test/server/logging.test.ts",
  "test/server/maintenance/schedule.test.ts",
  "test/server/ops/shutdown.test.ts",
  "test/server/outbound.test.ts",
  "test/server/testing-kit.test.ts",
];

/**
 * Files that take minutes: the engine tests, the packed packages' installs, the examples' own tests and
 * the fuzzers. They run first, in the `main` project; the files of seconds run after them, more at a time.
 */
const LONG_FILES = [
  "test/**/*.int.test.ts",
  "examples/*/test/**/*.test.ts",
  "test/package/published.test.ts",
  "test/server/schemathesis.test.ts",
  "test/provider/no-perpetual-diff.test.ts",
];

/**
 * On a fresh clone Vitest has no durations yet and orders files by size, which put small files of long
 * tests (the killed-up tests) last, one worker busy for minutes after the others ran out. These start
 * first in their group; so does the failover test, the longest of the solo suites, beside which the
 * browser suites run one after another.
 */
const LONG =
  /\.int\.test\.ts$|\/schemathesis\.test\.ts$|\/published\.test\.ts$|\/no-perpetual-diff\.test\.ts$|examples\/[^/]+\/test\/|\/replicas\/failover\.test\.ts$/;

/**
 * Vitest's order (group, then project by name, then the longest or largest file first) with the long
 * files first, and the projects of a group mixed: a group's projects share its workers, and by name
 * one project's files would all wait for the other's.
 */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const within = new Map<TestSpecification, number>();
    const seen = new Map<string, number>();
    for (const f of sorted) {
      const project = f.project.name;
      within.set(f, seen.get(project) ?? 0);
      seen.set(project, (seen.get(project) ?? 0) + 1);
    }
    const rank = (f: TestSpecification) => (LONG.test(f.moduleId) ? 0 : 1);
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    return sorted.sort(
      (a, b) => group(a) - group(b) || rank(a) - rank(b) || (within.get(a) ?? 0) - (within.get(b) ?? 0),
    );
  }
}

/**
 * `npm run test:fast` (UPTIME_TESTS=fast): the logic of the server, provider, plugin, scripts and docs on
 * SQLite, in parallel, in about two minutes. Left to `npm test`: the real Pulumi engine (every
 * `*.int.test.ts`, which need the Go builds), the packed packages' installs, PostgreSQL (the
 * postgres projects, the store suites' PostgreSQL half, the replica tests), the fuzzers
 * (Schemathesis, the property test) and the suites that measure time.
 */
const TIER = process.env.UPTIME_TESTS;

const SETUP = ["test/support/global-setup.ts"];
const ON_POSTGRES = { UPTIME_TEST_DB: "postgres" };

/**
 * A project of the root settings: the files of `include` less `exclude` (and node_modules), in group
 * `groupOrder` (groups run one after another; a group's projects share its workers), `maxWorkers`
 * files at a time, with the settings of `test` on top.
 */
function project(
  name: string,
  groupOrder: number,
  maxWorkers: number,
  include: string[],
  exclude: string[] = [],
  test: NonNullable<TestProjectInlineConfiguration["test"]> = {},
): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: { name, include, exclude: ["**/node_modules/**", ...exclude], maxWorkers, sequence: { groupOrder }, ...test },
  };
}

const fastProjects = [
  project(
    "fast",
    1,
    3,
    ["test/{server,provider,plugin,scripts,docs}/**/*.test.ts"],
    [
      "**/*.int.test.ts",
      "test/server/schemathesis.test.ts",
      "test/provider/no-perpetual-diff.test.ts",
      "test/server/replicas/**",
      // About PostgreSQL's announcements only.
      "test/server/store/announcements.test.ts",
      ...TIMED,
    ],
    { globalSetup: SETUP },
  ),
];

/**
 * `npm run fuzz` (UPTIME_TESTS=fuzz): the fuzzers at the depth that `npm test` leaves out, one file at
 * a time: Schemathesis at 100 examples per operation and the property test at 5,000 cases per
 * kind (either variable still wins).
 */
const fuzzProjects = [
  project("fuzz", 1, 1, ["test/server/schemathesis.test.ts", "test/provider/no-perpetual-diff.test.ts"], [], {
    env: {
      SCHEMATHESIS_MAX_EXAMPLES: process.env.SCHEMATHESIS_MAX_EXAMPLES ?? "100",
      PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? "5000",
    },
    globalSetup: SETUP,
    testTimeout: 3_600_000,
  }),
];

/**
 * `npm test`, in four groups, each after the one before (a group's projects share its workers):
 * 1. `main`: the files of minutes, three at a time (engine tests wait on the engine's processes);
 * 2. `short` and `postgres`: the files of seconds, on SQLite and again on PostgreSQL, five at a time
 *    (each mostly waits on its server's answers: three at a time left the cores half idle);
 * 3. `timed` and `postgres-timed`: the suites that measure time, five at a time (each uses about a
 *    third of a core and waits on its timers; with three, the group took 178 s and the cores sat more
 *    than half idle; with five, 131 to 150 s, every suite passing, also beside other work);
 * 4. `timed-solo` and `postgres-timed-solo`: the replica failover test (a core of its own, for a
 *    minute and a half) and, beside it, the browser suites one after another.
 */
const fullProjects = [
  // Three files at a time on two cores: an engine test spends much of its time waiting on the
  // engine's processes and the server's answers (with two, the cores sat a quarter idle). Nothing
  // here measures time.
  project("main", 1, 3, LONG_FILES, TIMED, { globalSetup: SETUP }),
  project("short", 2, 5, ["test/**/*.test.ts"], [...LONG_FILES, ...TIMED], { globalSetup: SETUP }),
  // The server suites again, each server on a new database of the run's one PostgreSQL (test/support/global-setup.ts).
  project("postgres", 2, 5, ["test/server/**/*.test.ts"], [...LONG_FILES, ...SQLITE_ONLY, ...STORE_FREE, ...TIMED], {
    env: ON_POSTGRES,
    globalSetup: SETUP,
  }),
  project("timed", 3, 5, TIMED, TIMED_SOLO),
  // The timed server suites on PostgreSQL, beside the SQLite ones.
  project(
    "postgres-timed",
    3,
    5,
    TIMED.filter((glob) => glob.startsWith("test/server/")),
    [...SQLITE_ONLY, ...STORE_FREE, ...TIMED_STORE_FREE, ...TIMED_SOLO],
    { env: ON_POSTGRES, globalSetup: SETUP },
  ),
  project("timed-solo", 4, 2, TIMED_SOLO),
  // The solo suites that reach the store, on PostgreSQL.
  project("postgres-timed-solo", 4, 2, TIMED_SOLO, [...SQLITE_ONLY, ...STORE_FREE, ...TIMED_STORE_FREE], {
    env: ON_POSTGRES,
    globalSetup: SETUP,
  }),
];

export default defineConfig({
  test: {
    pool: "forks",
    // Engine tests run `pulumi up` for real: minutes, not milliseconds.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    // Every run leaves its per-file durations in test-artifacts/durations.json (./test/support/durations-reporter.ts).
    reporters: ["default", "./test/support/durations-reporter.ts"],
    // Each file's CPU seconds, for that report.
    setupFiles: ["./test/support/cpu-time.ts"],
    sequence: { sequencer: LongFirst },
    projects: TIER === "fast" ? fastProjects : TIER === "fuzz" ? fuzzProjects : fullProjects,
  },
});
