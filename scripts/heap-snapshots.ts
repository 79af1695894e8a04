// Heap snapshots of a Pulumi program for bench/up.mts (BENCH_HEAP_SNAPSHOT, BENCH_HEAP_AT):
// Node writes one on SIGUSR2 into the directory, and the RSS sampler sends the signal.
import { readFileSync } from "node:fs";

const heapDir = process.env.BENCH_HEAP_SNAPSHOT;
const heapAt = (process.env.BENCH_HEAP_AT ?? "600").split(",").filter(Boolean).map(Number);

/** Node options that make a program write a heap snapshot into the directory on SIGUSR2 (none unless asked). */
export function heapSnapshotOptions(): string {
  return heapDir ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${heapDir}` : "";
}

/** The program processes already sent a snapshot signal at each size. */
const signalled = new Set<string>();

/** Asks a program for a heap snapshot once its RSS (MiB) first passes each `BENCH_HEAP_AT` size. */
export function snapshotAt(pid: number, rssMiB: number): void {
  if (!heapDir) return;
  // Only a process started with the option: SIGUSR2 ends any other.
  let environ = "";
  try {
    environ = readFileSync(`/proc/${pid}/environ`, "utf8");
  } catch {
    return;
  }
  if (!environ.includes("--heapsnapshot-signal")) return;
  for (const at of heapAt) {
    if (rssMiB < at || signalled.has(`${pid}:${at}`)) continue;
    signalled.add(`${pid}:${at}`);
    process.kill(pid, "SIGUSR2");
    process.stderr.write(`heap snapshot of program ${pid} at ${rssMiB} MiB RSS\n`);
  }
}
