import type { Executor } from "./sql/executor";
import type { MaintenanceWindow, MaintenanceWindowSpec } from "../../api";
import { windowActiveAt } from "../maintenance/schedule";
import { MonitorSetObjects } from "./account-objects";

interface WindowRow {
  id: string;
  account_id: string;
  spec: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Whether any of the windows, by their stored specs (JSON texts), is active at `now`. */
export function maintenanceAt(specs: readonly string[], now: number): boolean {
  return specs.some((spec) => windowActiveAt({ ...JSON.parse(spec), monitor_ids: [] }, now));
}

/** Maintenance windows and their monitor links. */
export class MaintenanceWindowRepository extends MonitorSetObjects<
  WindowRow,
  MaintenanceWindow,
  MaintenanceWindowSpec
> {
  constructor(db: Executor) {
    super(db, "maintenance_windows", "mw", { table: "maintenance_window_monitors", column: "window_id" });
  }

  /** The spec as one JSON column (its monitors are links). */
  protected columns(spec: MaintenanceWindowSpec) {
    return { spec: specJson(spec) };
  }

  /** Whether a window covering the monitor is in effect at `now` (the checker asks before each record). */
  async inMaintenance(monitorId: string, now = Date.now()): Promise<boolean> {
    const rows = (await this.db
      .prepare(
        `SELECT w.spec FROM maintenance_windows w JOIN maintenance_window_monitors l ON l.window_id = w.id
         WHERE l.monitor_id = ?`,
      )
      .all(monitorId)) as { spec: string }[];
    return maintenanceAt(
      rows.map((r) => r.spec),
      now,
    );
  }

  /** The windows covering any of the monitors, in creation order. */
  async forMonitors(monitorIds: readonly string[]): Promise<MaintenanceWindow[]> {
    if (monitorIds.length === 0) return [];
    const rows = (await this.db
      .prepare(
        `SELECT * FROM maintenance_windows WHERE id IN (SELECT window_id FROM maintenance_window_monitors WHERE monitor_id IN (${monitorIds.map(() => "?").join(", ")})) ORDER BY created_at, id`,
      )
      .all(...monitorIds)) as unknown as WindowRow[];
    return await Promise.all(rows.map(async (row) => await this.item(row)));
  }

  protected async item(row: WindowRow): Promise<MaintenanceWindow> {
    const spec = {
      ...(JSON.parse(row.spec) as Omit<MaintenanceWindowSpec, "monitor_ids">),
      monitor_ids: await this.monitors.of(row.id),
    };
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
