import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import type { BrowserTools } from "./tools";

/**
 * Runs the browser runner in a sandbox. bubblewrap gives it new user, mount, PID, network, IPC and
 * UTS namespaces: a file system of read-only /usr, the Node binary, the runner, the Playwright
 * packages, Node's compile cache of them (read-only; see compile-cache.ts) and its own job folder
 * (none of the server's files, database or key), an empty
 * environment and no network but the policy proxy's socket. prlimit caps its processes (not
 * enforced for root, which the watchdog covers), open files and file size; a watchdog here sums
 * the proportional memory (PSS) of its processes and kills it above the limit, or above the
 * process limit, or at the timeout. A kill ends the whole sandbox: its PID namespace dies with
 * its first process.
 */

/** Limits of one run. */
export interface SandboxLimits {
  /** Kill after this long, in ms. */
  timeoutMs: number;
  /** Kill when its processes together use more memory than this (PSS), in bytes. */
  memoryBytes: number;
  /** Kill when it runs more processes than this. */
  processes: number;
  /** The runner's own V8 heap limit, in MiB. */
  runnerHeapMib: number;
}

/** How a sandboxed run ended. */
export interface SandboxExit {
  /** Why the sandbox was killed (limit or timeout), or null when the runner exited by itself. */
  killed: string | null;
  code: number | null;
  /**
   * The highest total memory seen, in bytes: the sum of each process's PSS (at every check near the
   * limit; far from it, its last PSS reading plus the growth of its anonymous and shared memory
   * since); and the most processes at once.
   */
  peakMemoryBytes: number;
  peakProcesses: number;
  /** The runner's last output lines (its own errors), at most 2000 characters. */
  stderr: string;
}

/** Where the sandbox sees what it is given. */
export const INSIDE = {
  root: "/sandbox",
  job: "/sandbox/job",
  runner: "/sandbox/runner.js",
  node: "/sandbox/node",
  compileCache: "/sandbox/compile-cache",
} as const;

/** Node's compile cache given to a sandbox: read-only for a run, writable only for the warm-up. */
export interface SandboxCache {
  /** The cache folder on the server's machine (holds nothing but the cache). */
  dir: string;
  writable: boolean;
}

/** Parts of /etc Chromium reads (fonts, its own flags) and the font cache; the rest of /etc and /var is not there. */
const ETC = [
  "/etc/fonts",
  "/etc/chromium",
  "/etc/chromium.d",
  "/etc/ld.so.cache",
  "/etc/ssl/certs",
  "/etc/alternatives",
  "/etc/localtime",
  // The system's font cache, so that fontconfig does not scan the fonts again in every run.
  "/var/cache/fontconfig",
];

const WATCH_EVERY_MS = 250;
/** The runner's young generation from its start, in MiB per half. */
const RUNNER_SEMI_SPACE_MIB = 16;
/** Far from the limit, a process's PSS is due again every this many checks (every 4 s)... */
const PSS_EVERY_TICKS = 16;
/** ...and when its anonymous and shared memory moved by more than an eighth or this, in bytes. */
const MOVED_BYTES = 8 * 1048576;
/** Far from the limit, at most this many processes' PSS is read at one check (the most out of date first). */
const PSS_READS_PER_TICK = 1;

/** A process's last PSS reading (bytes), its anonymous and shared memory then, and the check it was taken at. */
interface PssReading {
  total: number;
  file: number;
  own: number;
  tick: number;
}

/**
 * A sandbox started ahead of its run: the runner loads Playwright and starts its browser while it
 * waits, and reads its job only when `go` is called. It serves one run, then ends; nothing in it
 * outlives that run. The memory and process limits hold from the start, the timeout from `go`.
 */
export class Sandbox {
  /** How it ended (resolves once it has). */
  readonly exited: Promise<SandboxExit>;
  private readonly child: ChildProcess;
  private killed: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  private readonly watch: NodeJS.Timeout;

  /**
   * Starts `runner` with job folder `jobDir` under `limits` (all but the timeout, which `go` sets),
   * and Node's compile cache `cache` if given.
   */
  constructor(
    tools: BrowserTools,
    runner: string,
    jobDir: string,
    limits: Omit<SandboxLimits, "timeoutMs">,
    cache: SandboxCache | null = null,
  ) {
    this.child = spawn(tools.prlimit, sandboxArgs(tools, runner, jobDir, limits, cache), {
      stdio: ["pipe", "ignore", "pipe"],
      detached: true,
      env: {},
    });
    this.child.stdin?.on("error", () => undefined);
    let stderr = "";
    this.child.stderr?.setEncoding("utf8").on("data", (d: string) => void (stderr = (stderr + d).slice(-2000)));
    let peakMemoryBytes = 0;
    let peakProcesses = 0;
    let tick = 0;
    // Each process's last PSS reading, with its counters then and the check it was taken at.
    const readings = new Map<number, PssReading>();
    const watch = (this.watch = setInterval(() => {
      tick++;
      const pids = tree(this.child.pid as number);
      peakProcesses = Math.max(peakProcesses, pids.length);
      // PSS costs a walk of a process's page tables (milliseconds for each of a browser's
      // processes, which reserve much address space); /proc/<pid>/status's counters cost next to
      // nothing. What a run allocates is anonymous or shared memory, which the counters give
      // whole (never below its PSS); its file-backed memory (code, fonts) moves little, and is
      // taken from the last reading. While that estimate is above 3/4 of the limit, every
      // process's PSS is read at every check, and that sum alone decides a kill. Below it, a
      // process's PSS is due when it has none yet, when its counters moved by an eighth (or
      // 8 MiB) since its last reading, or that reading is PSS_EVERY_TICKS checks old; of those
      // due, PSS_READS_PER_TICK are read per check, those never read first, then those whose
      // counters moved most (a browser starts a dozen processes that all grow in their first
      // second). What the estimate leaves out, the file-backed PSS of processes not read yet, is
      // the sandbox's share of the files its processes map (Chromium's code, libraries, fonts:
      // far below the quarter of the limit between the estimate's threshold and the limit). The
      // peak far from the limit is the sum of each process's last reading plus the growth of its
      // counters since (a process not read yet: its counters).
      const procs = pids.map((pid) => ({ pid, own: ownMemory(pid), last: readings.get(pid) }));
      const estimate = procs.reduce((sum, p) => sum + p.own + (p.last?.file ?? 0), 0);
      const near = estimate > limits.memoryBytes * 0.75;
      const due = near
        ? procs
        : procs
            .filter(
              ({ own, last: r }) =>
                r === undefined ||
                Math.abs(own - r.own) > Math.max(MOVED_BYTES, r.own / 8) ||
                tick - r.tick >= PSS_EVERY_TICKS,
            )
            .sort((a, b) => staleness(b) - staleness(a))
            .slice(0, PSS_READS_PER_TICK);
      for (const { pid, own } of due) readings.set(pid, { ...pss(pid), own, tick });
      let memory = 0;
      for (const { pid, own } of procs) {
        const r = readings.get(pid);
        memory += r === undefined ? own : r.total + Math.max(0, own - r.own);
      }
      // Processes gone: their readings go too (a PID may come back as another process).
      if (readings.size > pids.length) {
        const alive = new Set(pids);
        for (const pid of readings.keys()) if (!alive.has(pid)) readings.delete(pid);
      }
      peakMemoryBytes = Math.max(peakMemoryBytes, memory);
      if (near && memory > limits.memoryBytes)
        this.kill(
          `killed at the memory limit (${Math.round(limits.memoryBytes / 1048576)} MiB; it used ${Math.round(memory / 1048576)} MiB)`,
        );
      else if (pids.length > limits.processes)
        this.kill(`killed at the process limit (${limits.processes}; it ran ${pids.length})`);
    }, WATCH_EVERY_MS));
    // Waiting for its job, it keeps no one alive (a spare's owner may exit); from `go` it does.
    this.hold(false);
    this.exited = new Promise((resolve) => {
      this.child.on("close", (code) => {
        this.ended = true;
        clearTimeout(this.timer);
        clearInterval(watch);
        resolve({ killed: this.killed, code, peakMemoryBytes, peakProcesses, stderr: stderr.trim() });
      });
    });
  }

  /** Whether it still runs and has not been given its job. */
  get ready(): boolean {
    return !this.ended && this.killed === null && this.timer === undefined;
  }

  /** Lets the runner read its job (written to the job folder by then); kills it after `timeoutMs`. */
  go(timeoutMs: number): Promise<SandboxExit> {
    this.hold(true);
    this.timer = setTimeout(
      () => this.kill(`killed at the timeout (${timeoutMs / 1000} s with the browser's start)`),
      timeoutMs,
    );
    this.child.stdin?.end("go\n");
    return this.exited;
  }

  private hold(on: boolean): void {
    for (const handle of [
      this.child,
      this.watch,
      this.child.stdin as Socket | null,
      this.child.stderr as Socket | null,
    ]) {
      if (on) handle?.ref();
      else handle?.unref();
    }
  }

  /** Ends the whole sandbox (its PID namespace dies with its first process), saying why. */
  kill(why: string): void {
    if (this.killed !== null || this.ended) return;
    this.killed = why;
    // Whoever kills it may wait for its end.
    this.hold(true);
    try {
      process.kill(-(this.child.pid as number), "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Runs `runner` with job folder `jobDir` (its job already written) under `limits`. */
export function runSandboxed(
  tools: BrowserTools,
  runner: string,
  jobDir: string,
  limits: SandboxLimits,
): Promise<SandboxExit> {
  return new Sandbox(tools, runner, jobDir, limits).go(limits.timeoutMs);
}

function sandboxArgs(
  tools: BrowserTools,
  runner: string,
  jobDir: string,
  limits: Omit<SandboxLimits, "timeoutMs">,
  cache: SandboxCache | null,
): string[] {
  // A run's sandbox gets the cache read-only (the kernel refuses every write to it, from Node or
  // from any other process); Node wants write permission on a cache folder before it reads it.
  // "-try": a cache removed meanwhile (the server closing) leaves the run without one, not failed.
  const cacheArgs = cache ? [cache.writable ? "--bind" : "--ro-bind-try", cache.dir, INSIDE.compileCache] : [];
  const cacheWrite = cache ? [`--allow-fs-write=${INSIDE.compileCache}/`] : [];
  return [
    `--nproc=${limits.processes}`,
    "--nofile=2048",
    `--fsize=${64 * 1024 * 1024}`,
    "--core=0",
    "--",
    tools.bwrap,
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    ...["--setenv", "HOME", "/tmp", "--setenv", "PATH", "/usr/bin", "--setenv", "TMPDIR", "/tmp"],
    ...[
      "--ro-bind",
      "/usr",
      "/usr",
      "--symlink",
      "usr/lib",
      "/lib",
      "--symlink",
      "usr/lib64",
      "/lib64",
      "--symlink",
      "usr/bin",
      "/bin",
    ],
    ...ETC.flatMap((p) => ["--ro-bind-try", p, p]),
    ...["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"],
    ...["--ro-bind", tools.node, INSIDE.node, "--ro-bind", runner, INSIDE.runner],
    ...Object.entries(tools.packages).flatMap(([name, dir]) => [
      "--ro-bind",
      dir,
      `${INSIDE.root}/node_modules/${name}`,
    ]),
    ...cacheArgs,
    ...["--bind", jobDir, INSIDE.job, "--chdir", INSIDE.job],
    INSIDE.node,
    "--permission",
    // Reads of the sandbox's whole file system, which holds nothing of the server's: Playwright
    // probes the platform (/proc, /run, /etc/os-release) before it starts Chromium.
    "--allow-fs-read=/",
    `--allow-fs-write=${INSIDE.job}`,
    "--allow-fs-write=/tmp",
    ...cacheWrite,
    // Playwright starts Chromium; the sandbox, not Node, confines what that child can reach.
    "--allow-child-process",
    `--max-old-space-size=${limits.runnerHeapMib}`,
    // The young generation at its full size from the start (V8 starts it at 1 MiB a half and
    // grows it): loading Playwright allocates much that dies young, and a run lives a few
    // seconds; one scavenge instead of six and no full collection while Playwright loads.
    `--min-semi-space-size=${RUNNER_SEMI_SPACE_MIB}`,
    INSIDE.runner,
  ];
}

/** `root` and every process below it. */
function tree(root: number): number[] {
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    out.push(pid);
    const tasks = `/proc/${pid}/task`;
    if (!existsSync(tasks)) continue;
    for (const tid of safeList(tasks)) {
      const kids = safeRead(join(tasks, tid, "children")).trim();
      if (kids) queue.push(...kids.split(/\s+/).map(Number));
    }
  }
  return out;
}

/** How out of date a process's PSS reading is: without one, most; else by how far its counters moved since. */
function staleness(p: { own: number; last: PssReading | undefined }): number {
  return p.last === undefined ? Number.POSITIVE_INFINITY : Math.abs(p.own - p.last.own);
}

/** A process's anonymous and shared resident memory in bytes (whole, however shared), 0 when gone. */
function ownMemory(pid: number): number {
  const status = safeRead(`/proc/${pid}/status`);
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return (kib("RssAnon") + kib("RssShmem")) * 1024;
}

/** A process's proportional set size in bytes (its share of shared pages), and its file-backed part; 0 when gone. */
function pss(pid: number): { total: number; file: number } {
  const rollup = safeRead(`/proc/${pid}/smaps_rollup`);
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? 0);
  return { total: kib("Pss") * 1024, file: kib("Pss_File") * 1024 };
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
