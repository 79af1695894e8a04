import type { DatabaseSync } from "node:sqlite";
import type { Heartbeat, Stats } from "../../api";
import { transaction } from "./database";
import { newId } from "./ids";

/** Heartbeats are kept as long as the longest window the API serves (stats: 90 days). */
export const HEARTBEAT_RETENTION_MS = 90 * 86_400_000;

/** What a check found, to be recorded. */
export interface CheckOutcome {
  up: boolean;
  response_time_ms: number | null;
  status_code: number | null;
  error: string | null;
}

/** A recorded check and the health change it caused, if any. */
export interface Recorded {
  heartbeat: Heartbeat;
  /** `down` when an incident opened, `up` when one closed. */
  transition?: "down" | "up";
}

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

  /**
   * Records a check in one transaction: the heartbeat, the monitor's health, and the incident an
   * up↔down change opens or closes (pending→down opens one too). A monitor paused or deleted
   * while its check ran records nothing: pause stops heartbeats at once.
   */
  recordCheck(monitorId: string, outcome: CheckOutcome, at = Date.now()): Recorded | undefined {
    return transaction(this.db, () => {
      const monitor = this.db.prepare("SELECT health, status FROM monitors WHERE id = ?").get(monitorId) as
        | { health: string; status: string }
        | undefined;
      if (!monitor || monitor.status !== "active") return undefined;
      const heartbeat: Heartbeat = {
        id: newId("hb"),
        monitor_id: monitorId,
        checked_at: new Date(at).toISOString(),
        status: outcome.up ? "up" : "down",
        response_time_ms: outcome.response_time_ms,
        status_code: outcome.status_code,
        error: outcome.error,
      };
      this.db
        .prepare(
          "INSERT INTO heartbeats (id, monitor_id, checked_at, up, response_time_ms, status_code, error) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(heartbeat.id, monitorId, at, outcome.up ? 1 : 0, outcome.response_time_ms, outcome.status_code, outcome.error);
      this.db
        .prepare("UPDATE monitors SET health = ?, last_checked_at = ? WHERE id = ?")
        .run(heartbeat.status, heartbeat.checked_at, monitorId);
      let transition: Recorded["transition"];
      if (!outcome.up && monitor.health !== "down") {
        this.db.prepare("INSERT INTO incidents (id, monitor_id, started_at) VALUES (?, ?, ?)").run(newId("inc"), monitorId, at);
        transition = "down";
      } else if (outcome.up && monitor.health === "down") {
        this.db.prepare("UPDATE incidents SET ended_at = ? WHERE monitor_id = ? AND ended_at IS NULL").run(at, monitorId);
        transition = "up";
      }
      return { heartbeat, transition };
    });
  }

  /** Deletes heartbeats and closed incidents older than the retention; returns heartbeats deleted. */
  prune(now = Date.now()): number {
    const cutoff = now - HEARTBEAT_RETENTION_MS;
    this.db.prepare("DELETE FROM incidents WHERE ended_at IS NOT NULL AND ended_at < ?").run(cutoff);
    return Number(this.db.prepare("DELETE FROM heartbeats WHERE checked_at < ?").run(cutoff).changes);
  }

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
        `SELECT CAST((checked_at - ?) / ${DAY_MS} AS INTEGER) AS day, COUNT(*) AS checks, SUM(up) AS up, AVG(response_time_ms) AS avg_ms
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
