import type { Executor } from "./sql/executor";

/** An incident as the public page shows it: which monitor, when it started and ended. */
export interface IncidentRow {
  monitor_id: string;
  started_at: number;
  ended_at: number | null;
}

/**
 * The latest incidents of some monitors that started or were still open after `since`, newest
 * first: the "recent incidents" of a public status page.
 */
export async function recentIncidents(
  db: Executor,
  monitorIds: readonly string[],
  since: number,
  limit: number,
): Promise<IncidentRow[]> {
  if (monitorIds.length === 0) return [];
  const marks = monitorIds.map(() => "?").join(", ");
  return (await db
    .prepare(
      `SELECT monitor_id, started_at, ended_at FROM incidents
       WHERE monitor_id IN (${marks}) AND (started_at >= ? OR ended_at IS NULL OR ended_at >= ?)
       ORDER BY started_at DESC, id DESC LIMIT ?`,
    )
    .all(...monitorIds, since, since, limit)) as unknown as IncidentRow[];
}
