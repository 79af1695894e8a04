import { readdirSync, readFileSync } from "node:fs";

/** The parent pid of every process visible in /proc. */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command (which may hold spaces) start after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, ppid] = stat
        .slice(stat.lastIndexOf(")") + 1)
        .trim()
        .split(" ");
      table.set(Number(entry), Number(ppid));
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

/** `root` and every process below it. */
function descendants(root: number): number[] {
  const table = processTable();
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    for (const [pid, ppid] of table) if (ppid === out[i] && !out.includes(pid)) out.push(pid);
  }
  return out.filter((pid) => table.has(pid));
}

const signal = (pid: number, sig: NodeJS.Signals) => {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
};

/**
 * SIGKILLs a process we started and everything it started, as a CI runner cancelling a job
 * does. The Pulumi CLI starts its plugins in their own process groups, so killing the CLI's group
 * alone would leave the language host and the provider running (and creating): the tree is
 * frozen with SIGSTOP first, so nothing spawns while it is collected, then killed.
 */
export function killTree(root: number): number[] {
  const frozen = new Set<number>();
  for (let round = 0; round < 10; round++) {
    const found = descendants(root).filter((pid) => !frozen.has(pid));
    if (found.length === 0) break;
    for (const pid of found) {
      signal(pid, "SIGSTOP");
      frozen.add(pid);
    }
  }
  for (const pid of frozen) signal(pid, "SIGKILL");
  return [...frozen];
}
