/**
 * A Vitest reporter that leaves every run's durations for the next engineer in
 * `test-artifacts/durations.json`: the run's wall time and the load average at its start and end,
 * and per file its project, wall time (from its start to its end, hooks included), the worker that
 * ran it and the time of each test. Files are listed longest first, after each group's span and how
 * busy it kept the cores. The global set-up's steps are
 * in `test-artifacts/set-up.json` (./shared-artifacts.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join, relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node" with { "resolution-mode": "import" };
import { REPO_ROOT } from "../../scripts/pulumi-engine";

/** One test file of the run, as durations.json holds it. */
export interface FileDuration {
  project: string;
  file: string;
  state: string;
  /** Seconds from the run's start to the file's start. */
  startedAtSec: number;
  /** The file's seconds: its environment, imports and collection, hooks and tests. */
  wallSec: number;
  /**
   * CPU seconds of the file's process and the children it waited for (./cpu-time.ts): unlike the
   * wall time, about the same on a loaded machine.
   */
  cpuSec: number | undefined;
  /** The worker (1..maxWorkers of its project's group) that ran it. */
  worker: number;
  /** Each test's own seconds, in the order they ran. */
  tests: { name: string; sec: number; state: string }[];
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * One group of projects (`sequence.groupOrder`: a group runs after the one before, its projects
 * share its workers): when its first file started and its last ended, and how busy it kept the cores.
 */
export interface GroupDuration {
  groupOrder: number;
  projects: string[];
  startedAtSec: number;
  endedAtSec: number;
  cpuSec: number;
  /** The group's CPU seconds over its wall time times the cores, in percent. */
  busyPercent: number;
}

/** The run's groups in their order, from its files. */
function groupsOf(files: (FileDuration & { groupOrder: number })[]): GroupDuration[] {
  const groups = new Map<number, GroupDuration>();
  for (const f of files) {
    const g = groups.get(f.groupOrder) ?? {
      groupOrder: f.groupOrder,
      projects: [],
      startedAtSec: Infinity,
      endedAtSec: 0,
      cpuSec: 0,
      busyPercent: 0,
    };
    if (!g.projects.includes(f.project)) g.projects.push(f.project);
    g.startedAtSec = Math.min(g.startedAtSec, f.startedAtSec);
    g.endedAtSec = Math.max(g.endedAtSec, seconds((f.startedAtSec + f.wallSec) * 1000));
    g.cpuSec += f.cpuSec ?? 0;
    groups.set(f.groupOrder, g);
  }
  return [...groups.values()]
    .sort((a, b) => a.groupOrder - b.groupOrder)
    .map((g) => ({
      ...g,
      cpuSec: Math.round(g.cpuSec),
      busyPercent: Math.round((100 * g.cpuSec) / Math.max(1, (g.endedAtSec - g.startedAtSec) * availableParallelism())),
    }));
}

/** Writes test-artifacts/durations.json at the end of every run. */
export default class DurationsReporter implements Reporter {
  private started = Date.now();
  private loadAtStart = loadavg();
  private readonly ends = new Map<string, number>();

  onTestRunStart(): void {
    this.started = Date.now();
    this.loadAtStart = loadavg();
  }

  onTestModuleEnd(module: TestModule): void {
    this.ends.set(module.id, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files: (FileDuration & { groupOrder: number })[] = modules.map((module) => {
      const d = module.diagnostic();
      const wall = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
      const end = this.ends.get(module.id) ?? this.started + wall;
      return {
        project: module.project.name,
        groupOrder: module.project.config.sequence.groupOrder,
        file: relative(REPO_ROOT, module.moduleId),
        state: module.state(),
        startedAtSec: seconds(end - wall - this.started),
        wallSec: seconds(wall),
        cpuSec: module.meta().cpuSec,
        worker: d.concurrencyId,
        tests: [...module.children.allTests()].map((test) => ({
          name: test.fullName,
          sec: seconds(test.diagnostic()?.duration ?? 0),
          state: test.result().state,
        })),
      };
    });
    files.sort((a, b) => b.wallSec - a.wallSec);
    const dir = join(REPO_ROOT, "test-artifacts");
    mkdirSync(dir, { recursive: true });
    const report = {
      finishedAt: new Date().toISOString(),
      wallSec: seconds(Date.now() - this.started),
      cpuSec: Math.round(files.reduce((sum, f) => sum + (f.cpuSec ?? 0), 0)),
      loadAverage: { atStart: this.loadAtStart, atEnd: loadavg() },
      groups: groupsOf(files),
      files,
    };
    writeFileSync(join(dir, "durations.json"), `${JSON.stringify(report, null, 1)}\n`);
  }
}
