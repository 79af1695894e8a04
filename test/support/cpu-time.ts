/**
 * A setup file of every project: records the CPU seconds a test file spends, its own process and
 * every child process it waited for (the Pulumi CLI and what it starts, PostgreSQL's initdb,
 * Schemathesis, Chromium), in the file's meta for ./durations-reporter.ts. On a shared machine a
 * file's wall time moves with the load; its CPU time does not, and the sum over the files, halved,
 * is the least a run can take on two cores.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";

declare module "vitest" {
  interface TaskMeta {
    /** CPU seconds of the file's process and its waited-for children, from its first hook to its last. */
    cpuSec?: number;
  }
}

/** This process's user and system seconds and those of its children it waited for (Linux `/proc`). */
function cpuSeconds(): number | undefined {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime, stime, cutime, cstime: fields 14 to 17 of stat(5), in clock ticks (100 a second).
    return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
  } catch {
    return undefined;
  }
}

let atStart: number | undefined;
beforeAll(() => {
  atStart = cpuSeconds();
});
// Vitest reads a hook's first parameter as its fixtures: an empty pattern asks for none.
// eslint-disable-next-line no-empty-pattern
afterAll(({}, file) => {
  const now = cpuSeconds();
  if (atStart !== undefined && now !== undefined) file.meta.cpuSec = Math.round((now - atStart) * 10) / 10;
});
