import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import type { BrowserTools } from "./tools";

/**
 * Runs the browser runner in a sandbox. bubblewrap gives it new user, mount, PID, network, IPC and
 * UTS namespaces: a file system of read-only /usr, the Node binary, the runner, the Playwright
 * packages and its own job folder (none of the server's files, database or key), an empty
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
  /** The highest total memory seen (PSS), in bytes; and the most processes at once. */
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
} as const;

/** Parts of /etc Chromium reads (fonts, its own flags); the rest of /etc is not there. */
const ETC = [
  "/etc/fonts",
  "/etc/chromium",
  "/etc/chromium.d",
  "/etc/ld.so.cache",
  "/etc/ssl/certs",
  "/etc/alternatives",
  "/etc/localtime",
];

const WATCH_EVERY_MS = 250;

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

  /** Starts `runner` with job folder `jobDir` under `limits` (all but the timeout, which `go` sets). */
  constructor(tools: BrowserTools, runner: string, jobDir: string, limits: Omit<SandboxLimits, "timeoutMs">) {
    this.child = spawn(tools.prlimit, sandboxArgs(tools, runner, jobDir, limits), {
      stdio: ["pipe", "ignore", "pipe"],
      detached: true,
      env: {},
    });
    this.child.stdin?.on("error", () => undefined);
    let stderr = "";
    this.child.stderr?.setEncoding("utf8").on("data", (d: string) => void (stderr = (stderr + d).slice(-2000)));
    let peakMemoryBytes = 0;
    let peakProcesses = 0;
    const watch = (this.watch = setInterval(() => {
      const pids = tree(this.child.pid as number);
      const memory = pids.reduce((sum, pid) => sum + pss(pid), 0);
      peakMemoryBytes = Math.max(peakMemoryBytes, memory);
      peakProcesses = Math.max(peakProcesses, pids.length);
      if (memory > limits.memoryBytes)
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
): string[] {
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
    ...["--bind", jobDir, INSIDE.job, "--chdir", INSIDE.job],
    INSIDE.node,
    "--permission",
    // Reads of the sandbox's whole file system, which holds nothing of the server's: Playwright
    // probes the platform (/proc, /run, /etc/os-release) before it starts Chromium.
    "--allow-fs-read=/",
    `--allow-fs-write=${INSIDE.job}`,
    "--allow-fs-write=/tmp",
    // Playwright starts Chromium; the sandbox, not Node, confines what that child can reach.
    "--allow-child-process",
    `--max-old-space-size=${limits.runnerHeapMib}`,
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

/** A process's proportional set size in bytes (its share of shared pages), 0 when gone. */
function pss(pid: number): number {
  const match = /^Pss:\s+(\d+) kB/m.exec(safeRead(`/proc/${pid}/smaps_rollup`));
  return match ? Number(match[1]) * 1024 : 0;
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
