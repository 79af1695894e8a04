import { MONITOR_ROWS } from "./monitor-rows";
import type { ExternalCommits } from "./sql/database";

/**
 * The tables whose rows a status page shows: pages and their structure, monitors (names, health,
 * pause), their checks and daily roll-ups, down periods, maintenance windows, incidents and
 * manual components' states; accounts, whose deletion deletes their rows.
 */
export const PAGE_TABLES: readonly string[] = [
  "accounts",
  "monitors",
  "heartbeats",
  "heartbeat_days",
  "location_days",
  "location_health",
  "check_streaks",
  "incidents",
  "maintenance_windows",
  "maintenance_window_monitors",
  "status_pages",
  "status_page_monitors",
  "status_component_states",
  "status_incidents",
  "status_incident_updates",
];
const PAGE_SET = new Set(PAGE_TABLES);

/** Monitors whose last write is remembered; past this many, the oldest are forgotten as a write to every page. */
const MONITORS_KEPT = 100_000;

/**
 * When what status pages show was last written: this process's writes (told by the store's
 * `WriteWatch`) and other processes' (SQLite's data version of the file, PostgreSQL replicas'
 * announcements, through `ExternalCommits`). A write to rows of one monitor (`MONITOR_ROWS`: its
 * checks, roll-ups, health, down periods) moves that monitor only; any other write to what pages
 * show (a page, its structure, incidents, maintenance windows, an account; or a write whose
 * monitor is not known) moves every page. What was computed at one point stays true until a
 * write to something it shows comes after it (or time passes).
 */
export class PageChanges {
  /** Counts every write: the points computations start at. */
  private tick = 0;
  /** The last write that may concern any page. */
  private everything = 0;
  /** The last write to rows of each monitor. */
  private readonly monitors = new Map<string, number>();

  constructor(private readonly commits: ExternalCommits) {
    commits.subscribe(
      PAGE_TABLES,
      () => this.all(),
      (id, table) => (MONITOR_ROWS.has(table) ? this.monitor(id) : this.all()),
    );
  }

  /** A committed write of this process to `table` (`*`: any table), to rows of monitor `monitorId` when known. */
  wrote(table: string, monitorId?: string): void {
    if (table !== "*" && !PAGE_SET.has(table)) return;
    if (monitorId !== undefined && MONITOR_ROWS.has(table)) this.monitor(monitorId);
    else this.all();
  }

  /** The point now, once other processes' commits have been looked at: computations start at it. */
  async current(): Promise<number> {
    await this.commits.check();
    return this.tick;
  }

  /**
   * Whether anything written since point `at` may change what shows `monitors` (and what every
   * page shows); with `monitors` undefined, whether anything was written since.
   */
  changedSince(at: number, monitors: ReadonlySet<string> | undefined): boolean {
    if (this.tick <= at) return false;
    if (monitors === undefined || this.everything > at) return true;
    for (const id of monitors) if ((this.monitors.get(id) ?? 0) > at) return true;
    return false;
  }

  /**
   * Whether anything besides monitors' rows (a page, its structure, incidents, maintenance
   * windows, an account, or a write whose monitor is not known) was written since point `at`.
   */
  pagesWrittenSince(at: number): boolean {
    return this.everything > at;
  }

  private all(): void {
    this.everything = ++this.tick;
  }

  private monitor(id: string): void {
    if (this.monitors.size >= MONITORS_KEPT && !this.monitors.has(id)) {
      // Forgotten monitors' writes can no longer be told apart: count them as a write to every page.
      this.monitors.clear();
      this.all();
    }
    this.monitors.delete(id);
    this.monitors.set(id, ++this.tick);
  }
}
