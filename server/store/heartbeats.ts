import type { DatabaseSync } from "node:sqlite";
import type { Heartbeat, Stats } from "../../api";

const DAY_MS = 86_400_000;

interface HeartbeatRow {
  id: string;
  monitor_id: string;
  checked_at: number;
  up: number;
  response_time_ms: number | null;
  status_code: number | null;
  error: string | null;
}

const round = (n: number | null, digits = 3) => (n === null ? null : Number(n.toFixed(digits)));

/** Check results and incidents: what heartbeats, stats and the public document are made of. */
export class HeartbeatRepository {
  constructor(private readonly db: DatabaseSync) {}

  /** Heartbeats of the last `hours` hours, newest first. */
  recent(monitorId: string, hours: number, now = Date.now()): Heartbeat[] {
    const rows = this.db
      .prepare(
        "SELECT * FROM heartbeats WHERE monitor_id = ? AND checked_at >= ? ORDER BY checked_at DESC, id DESC",
      )
      .all(monitorId, now - hours * 3_600_000) as unknown as HeartbeatRow[];
    return rows.map((r) => ({
      id: r.id,
      monitor_id: r.monitor_id,
      checked_at: new Date(r.checked_at).toISOString(),
      status: r.up ? "up" : "down",
      response_time_ms: r.response_time_ms,
      status_code: r.status_code,
      error: r.error,
    }));
  }

  /** Uptime % over [since, now], or null with no checks. */
  uptime(monitorId: string, since: number): number | null {
    const row = this.db
      .prepare("SELECT COUNT(*) AS n, SUM(up) AS up FROM heartbeats WHERE monitor_id = ? AND checked_at >= ?")
      .get(monitorId, since) as { n: number; up: number | null };
    return row.n === 0 ? null : round((100 * (row.up ?? 0)) / row.n);
  }

  /**
   * Stats over the last `days` UTC days: from midnight `days - 1` days ago until now, so the daily
   * breakdown has exactly `days` entries, the last one today so far.
   */
  stats(monitorId: string, days: number, now = Date.now()): Stats {
    const from = Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
    const totals = this.db
      .prepare(
        `SELECT COUNT(*) AS checks, COALESCE(SUM(up), 0) AS up_checks, AVG(response_time_ms) AS avg_ms,
                COUNT(response_time_ms) AS timed
         FROM heartbeats WHERE monitor_id = ? AND checked_at >= ? AND checked_at <= ?`,
      )
      .get(monitorId, from, now) as {
      checks: number;
      up_checks: number;
      avg_ms: number | null;
      timed: number;
    };
    const p95 =
      totals.timed === 0
        ? null
        : (
            this.db
              .prepare(
                `SELECT response_time_ms AS v FROM heartbeats
                 WHERE monitor_id = ? AND checked_at >= ? AND checked_at <= ? AND response_time_ms IS NOT NULL
                 ORDER BY response_time_ms LIMIT 1 OFFSET ?`,
              )
              .get(monitorId, from, now, Math.ceil(0.95 * totals.timed) - 1) as { v: number }
          ).v;
    const daily = this.db
      .prepare(
        `SELECT (checked_at - ?) / ${DAY_MS} AS day, COUNT(*) AS checks, SUM(up) AS up, AVG(response_time_ms) AS avg_ms
         FROM heartbeats WHERE monitor_id = ? AND checked_at >= ? AND checked_at <= ? GROUP BY day`,
      )
      .all(from, monitorId, from, now) as {
      day: number;
      checks: number;
      up: number;
      avg_ms: number | null;
    }[];
    const byDay = new Map(daily.map((d) => [d.day, d]));
    const incidents = this.db
      .prepare(
        `SELECT COUNT(*) AS n, COALESCE(SUM(MIN(COALESCE(ended_at, ?), ?) - MAX(started_at, ?)), 0) AS down_ms
         FROM incidents WHERE monitor_id = ? AND started_at <= ? AND (ended_at IS NULL OR ended_at >= ?)`,
      )
      .get(now, now, from, monitorId, now, from) as { n: number; down_ms: number };
    return {
      monitor_id: monitorId,
      from: new Date(from).toISOString(),
      to: new Date(now).toISOString(),
      checks: totals.checks,
      up_checks: totals.up_checks,
      down_checks: totals.checks - totals.up_checks,
      uptime_pct: totals.checks === 0 ? null : round((100 * totals.up_checks) / totals.checks),
      avg_response_ms: round(totals.avg_ms, 1),
      p95_response_ms: p95,
      incidents: incidents.n,
      downtime_sec: Math.round(incidents.down_ms / 1000),
      daily: Array.from({ length: days }, (_, day) => {
        const d = byDay.get(day);
        return {
          date: new Date(from + day * DAY_MS).toISOString().slice(0, 10),
          checks: d?.checks ?? 0,
          uptime_pct: d ? round((100 * d.up) / d.checks) : null,
          avg_response_ms: round(d?.avg_ms ?? null, 1),
        };
      }),
    };
  }
}
