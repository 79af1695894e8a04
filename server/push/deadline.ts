import type { Executor } from "../store/sql/executor";
import type { CheckOutcome } from "../store/heartbeats";

/** What the deadline of a heartbeat monitor depends on. */
export interface PushMonitor {
  id: string;
  interval_sec: number;
  grace_sec: number;
  /** Changes on create, PATCH, pause and resume: the clock restarts then. */
  updated_at: string;
}

/**
 * The check of a heartbeat (push) monitor at `now`: down when no ping arrived within
 * `interval_sec + grace_sec` of the last ping (or of the monitor's last change); undefined while
 * the deadline has not passed, so nothing is recorded between pings. Past it, one down check is
 * recorded per `interval_sec` (the checker looks more often than that).
 */
export async function missedPing(
  db: Executor,
  monitor: PushMonitor,
  now = Date.now(),
): Promise<CheckOutcome | undefined> {
  const row = (await db
    .prepare("SELECT MAX(checked_at) AS at FROM heartbeats WHERE monitor_id = ? AND up = 1")
    .get(monitor.id)) as { at: number | null };
  const since = Math.max(row.at ?? 0, Date.parse(monitor.updated_at));
  const allowedMs = (monitor.interval_sec + monitor.grace_sec) * 1000;
  if (now - since <= allowedMs) return undefined;
  const last = (await db
    .prepare("SELECT checked_at FROM heartbeats WHERE monitor_id = ? ORDER BY checked_at DESC LIMIT 1")
    .get(monitor.id)) as { checked_at: number } | undefined;
  if (last && last.checked_at > since && now - last.checked_at < monitor.interval_sec * 1000) return undefined;
  return {
    up: false,
    response_time_ms: null,
    status_code: null,
    error: `no ping for ${Math.round((now - since) / 1000)} s (expected every ${monitor.interval_sec} s, grace ${monitor.grace_sec} s)`,
  };
}
