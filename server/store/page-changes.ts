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

/**
 * A number that changes with every committed write to what status pages show: this process's
 * (told by the store's `WriteWatch`) and other processes' (SQLite's data version of the file,
 * PostgreSQL replicas' announcements, through `ExternalCommits`). What was computed at one
 * version stays true until the version moves (or time passes).
 */
export class PageChanges {
  private version = 0;

  constructor(private readonly commits: ExternalCommits) {
    commits.subscribe(PAGE_TABLES, () => this.version++);
  }

  /** A committed write of this process to `table` (`*`: any table). */
  wrote(table: string): void {
    if (table === "*" || PAGE_SET.has(table)) this.version++;
  }

  /** The version now, once other processes' commits have been looked at. */
  async current(): Promise<number> {
    await this.commits.check();
    return this.version;
  }
}
