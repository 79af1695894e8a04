import type { DatabaseSync } from "node:sqlite";
import type { MaintenanceWindow, MaintenanceWindowSpec } from "../../api";
import { windowActiveAt } from "../maintenance/schedule";
import { ownedIds, transaction } from "./database";
import { newId, nowIso } from "./ids";
import { afterCursor, type Page, toPage } from "./pagination";

interface WindowRow {
  id: string;
  account_id: string;
  spec: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Maintenance windows and their monitor links. */
export class MaintenanceWindowRepository {
  constructor(private readonly db: DatabaseSync) {}

  list(accountId: string, limit: number, cursor?: string): Page<MaintenanceWindow> {
    const after = afterCursor(cursor);
    const rows = this.db
      .prepare(`SELECT * FROM maintenance_windows WHERE account_id = ? AND ${after.sql} ORDER BY created_at, id LIMIT ?`)
      .all(accountId, ...after.params, limit + 1) as unknown as WindowRow[];
    return toPage(rows, limit, (kept) => kept.map((row) => this.hydrate(row)));
  }

  get(accountId: string, id: string): MaintenanceWindow | undefined {
    const row = this.db
      .prepare("SELECT * FROM maintenance_windows WHERE id = ? AND account_id = ?")
      .get(id, accountId) as WindowRow | undefined;
    return row ? this.hydrate(row) : undefined;
  }

  /** The ids among `ids` that are monitors of the account. */
  existingMonitors(accountId: string, ids: readonly string[]): Set<string> {
    return ownedIds(this.db, "monitors", accountId, ids);
  }

  create(accountId: string, spec: MaintenanceWindowSpec, externalId: string | null = null): MaintenanceWindow {
    const id = newId("mw");
    const now = nowIso();
    transaction(this.db, () => {
      this.db
        .prepare("INSERT INTO maintenance_windows (id, account_id, spec, external_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(id, accountId, specJson(spec), externalId, now, now);
      this.link(id, spec.monitor_ids);
    });
    return this.get(accountId, id) as MaintenanceWindow;
  }

  /** `externalId` undefined keeps the mark, null clears it. */
  update(accountId: string, id: string, spec: MaintenanceWindowSpec, externalId?: string | null): MaintenanceWindow | undefined {
    const changed = transaction(this.db, () => {
      const result = this.db
        .prepare(
          "UPDATE maintenance_windows SET spec = ?, external_id = iif(?, ?, external_id), updated_at = ? WHERE id = ? AND account_id = ?",
        )
        .run(specJson(spec), externalId === undefined ? 0 : 1, externalId ?? null, nowIso(), id, accountId);
      if (result.changes === 0) return false;
      this.db.prepare("DELETE FROM maintenance_window_monitors WHERE window_id = ?").run(id);
      this.link(id, spec.monitor_ids);
      return true;
    });
    return changed ? this.get(accountId, id) : undefined;
  }

  delete(accountId: string, id: string): MaintenanceWindow | undefined {
    const window = this.get(accountId, id);
    if (window) this.db.prepare("DELETE FROM maintenance_windows WHERE id = ? AND account_id = ?").run(id, accountId);
    return window;
  }

  /** Whether a window covering the monitor is in effect at `now` (the checker asks before each record). */
  inMaintenance(monitorId: string, now = Date.now()): boolean {
    const rows = this.db
      .prepare(
        `SELECT w.spec FROM maintenance_windows w JOIN maintenance_window_monitors l ON l.window_id = w.id
         WHERE l.monitor_id = ?`,
      )
      .all(monitorId) as { spec: string }[];
    return rows.some((r) => windowActiveAt({ ...JSON.parse(r.spec), monitor_ids: [] }, now));
  }

  private link(windowId: string, monitorIds: readonly string[]): void {
    const insert = this.db.prepare("INSERT INTO maintenance_window_monitors (window_id, monitor_id) VALUES (?, ?)");
    for (const monitorId of monitorIds) insert.run(windowId, monitorId);
  }

  private hydrate(row: WindowRow): MaintenanceWindow {
    const links = this.db
      .prepare("SELECT monitor_id FROM maintenance_window_monitors WHERE window_id = ? ORDER BY monitor_id")
      .all(row.id) as { monitor_id: string }[];
    const spec = { ...(JSON.parse(row.spec) as Omit<MaintenanceWindowSpec, "monitor_ids">), monitor_ids: links.map((l) => l.monitor_id) };
    return {
      id: row.id,
      ...spec,
      active: windowActiveAt(spec),
      external_id: row.external_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}

/** The spec as stored: monitor links live in their own table. */
function specJson(spec: MaintenanceWindowSpec): string {
  const { monitor_ids: _links, ...rest } = spec;
  return JSON.stringify(rest);
}
