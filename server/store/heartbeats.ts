import type { Executor } from "./sql/executor";
import {
  type BrowserEvidence,
  type CheckAttempt,
  type CheckTimings,
  type ErrorClass,
  type Heartbeat,
  type LocationStats,
  type Stats,
  STATS_MAX_DAYS,
  type StepResult,
} from "../../api";

export type { CheckAttempt } from "../../api";
import type { HealthRepository, Transition } from "./health";
import { newId } from "./ids";
import { readScreenshot, saveScreenshot } from "./screenshots";
import { bucketOf, type Histogram, quantile } from "./rollup";

/** What a check found, to be recorded. */
export interface CheckOutcome {
  up: boolean;
  response_time_ms: number | null;
  status_code: number | null;
  error: string | null;
  /** https monitors with certificate checks: when the certificate expires (RFC 3339). */
  cert_expires_at?: string | null;
  /** Up, but slower than `degraded_response_ms`. */
  degraded?: boolean;
  error_class?: ErrorClass | null;
  assertions?: NonNullable<Heartbeat["assertions"]>;
  timings?: CheckTimings | null;
  /** multistep monitors: each step's outcome. */
  steps?: StepResult[];
  /** Runs with retries: every attempt. */
  attempts?: CheckAttempt[];
  /** browser monitors: the run's evidence, and its screenshot (a PNG, kept beside the heartbeat). */
  browser?: BrowserEvidence;
  screenshot?: Buffer | null;
}

/** A recorded check and the health change it caused, if any; or a check recorded before (`duplicate`). */
export type Recorded =
  | {
      heartbeat: Heartbeat;
      /** `down` when an incident opened, `up` when one closed. */
      transition?: Transition;
      /** The monitor's live locations that find it down now. */
      failedLocations: string[];
      duplicate?: undefined;
    }
  | { duplicate: true; heartbeat?: undefined; transition?: undefined; failedLocations?: undefined };

/** One UTC day in milliseconds: the unit of the roll-up and of the stats windows. */
export const DAY_MS = 86_400_000;

/** Heartbeats are kept as long as the longest window the API serves (stats: {@link STATS_MAX_DAYS} days). */
export const HEARTBEAT_RETENTION_MS = STATS_MAX_DAYS * DAY_MS;

interface HeartbeatRow {
  id: string;
  monitor_id: string;
  checked_at: number;
  up: number;
  response_time_ms: number | null;
  status_code: number | null;
  error: string | null;
  maintenance: number;
  cert_expires_at: number | null;
  degraded: number;
  error_class: ErrorClass | null;
  details: string | null;
  location: string | null;
}

/** A stored row as the API answers it (rows from before version 4 have no details). */
function toHeartbeat(r: HeartbeatRow): Heartbeat {
  const details = r.details
    ? (JSON.parse(r.details) as Pick<Heartbeat, "assertions" | "timings" | "steps" | "attempts" | "browser">)
    : { assertions: [], timings: null };
  return {
    id: r.id,
    monitor_id: r.monitor_id,
    checked_at: new Date(r.checked_at).toISOString(),
    status: r.up ? (r.degraded ? "degraded" : "up") : r.maintenance ? "maintenance" : "down",
    response_time_ms: r.response_time_ms,
    status_code: r.status_code,
    error: r.error,
    cert_expires_at: r.cert_expires_at === null ? null : new Date(r.cert_expires_at).toISOString(),
    error_class: r.error_class,
    assertions: details.assertions ?? [],
    timings: details.timings ?? null,
    ...(details.steps ? { steps: details.steps } : {}),
    ...(details.attempts ? { attempts: details.attempts } : {}),
    ...(details.browser ? { browser: details.browser } : {}),
    location: r.location,
  };
}

/** One check result to store (see `HeartbeatRepository.insert`). */
export interface HeartbeatWrite {
  monitorId: string;
  outcome: CheckOutcome;
  /** When the check ran (epoch ms). */
  at: number;
  /** A failure inside a maintenance window. */
  maintenance: boolean;
  location: string | null;
  /** An agent's check: `<monitor>/<location>/<due>` (recorded once). */
  checkKey: string | undefined;
  /** The check's day's roll-up histogram (JSON) as the transaction read it; undefined when the day has none yet. */
  histogram: string | undefined;
}

/**
 * A batch's write to rows of its checks' monitors, announced to other replicas as those monitors'
 * rows (see `MONITOR_ROWS`): the JSON rows' `monitor_id`.
 */
const BY_MONITOR = { rows: { param: 0, key: "monitor_id" } } as const;

/** The columns of a heartbeat as one statement writes a batch of them. */
const HEARTBEAT_COLUMNS = {
  id: "text",
  monitor_id: "text",
  checked_at: "integer",
  up: "integer",
  response_time_ms: "integer",
  status_code: "integer",
  error: "text",
  maintenance: "integer",
  cert_expires_at: "integer",
  degraded: "integer",
  error_class: "text",
  details: "text",
  location: "text",
  check_key: "text",
} as const;

/** The stored row of a check result. */
function heartbeatRow(c: HeartbeatWrite): HeartbeatRow {
  const { outcome } = c;
  const details = {
    assertions: outcome.assertions ?? [],
    timings: outcome.timings ?? null,
    ...(outcome.steps ? { steps: outcome.steps } : {}),
    ...(outcome.attempts ? { attempts: outcome.attempts } : {}),
    ...(outcome.browser ? { browser: outcome.browser } : {}),
  };
  return {
    id: newId("hb"),
    monitor_id: c.monitorId,
    checked_at: c.at,
    up: outcome.up ? 1 : 0,
    response_time_ms: outcome.response_time_ms,
    status_code: outcome.status_code,
    error: outcome.error,
    maintenance: c.maintenance ? 1 : 0,
    cert_expires_at: outcome.cert_expires_at ? Date.parse(outcome.cert_expires_at) : null,
    degraded: outcome.up && outcome.degraded === true ? 1 : 0,
    error_class: outcome.up ? null : (outcome.error_class ?? null),
    details: JSON.stringify(details),
    location: c.location,
  };
}

const round = (n: number | null, digits = 3) => (n === null ? null : Number(n.toFixed(digits)));

/** Check results and their daily roll-up: what heartbeats, stats and the public document are made of. */
export class HeartbeatRepository {
  constructor(
    private readonly db: Executor,
    private readonly incidents: HealthRepository,
  ) {}

  /** The screenshot kept with heartbeat `heartbeatId` of monitor `monitorId`, if any. */
  screenshot(monitorId: string, heartbeatId: string): Promise<Buffer | undefined> {
    return readScreenshot(this.db, monitorId, heartbeatId);
  }

  /**
   * Stores check results and adds them to their days' roll-ups (call inside a transaction), a
   * statement per table for all of them; at most one check per monitor. A failure inside a
   * maintenance window is recorded as `maintenance`, not downtime. `histogram`: the check's day's
   * roll-up histogram as the transaction read it (undefined: the day has no roll-up yet).
   */
  async insert(checks: readonly HeartbeatWrite[]): Promise<Heartbeat[]> {
    if (checks.length === 0) return [];
    const rows = checks.map((c) => heartbeatRow(c));
    const json = (columns: Parameters<Executor["dialect"]["jsonRows"]>[1]) => this.db.dialect.jsonRows("r", columns);
    const names = Object.keys(HEARTBEAT_COLUMNS).join(", ");
    await this.db
      .prepare(`INSERT INTO heartbeats (${names}) SELECT ${names} FROM ${json(HEARTBEAT_COLUMNS)}`, BY_MONITOR)
      .run(JSON.stringify(rows.map((row, i) => ({ ...row, check_key: checks[i]?.checkKey ?? null }))));
    for (const [i, c] of checks.entries())
      if (c.outcome.screenshot)
        await saveScreenshot(this.db, (rows[i] as HeartbeatRow).id, c.monitorId, c.outcome.screenshot);
    await this.rollUp(checks);
    await this.rollUpLocations(checks.filter((c) => c.location !== null));
    return rows.map(toHeartbeat);
  }

  /** Whether an agent's check (`<monitor>/<location>/<due>`) was recorded already. */
  async hasCheck(checkKey: string): Promise<boolean> {
    return (await this.db.prepare("SELECT 1 FROM heartbeats WHERE check_key = ?").get(checkKey)) !== undefined;
  }

  private async rollUpLocations(checks: readonly HeartbeatWrite[]): Promise<void> {
    if (checks.length === 0) return;
    const rows = this.db.dialect.jsonRows("r", {
      monitor_id: "text",
      location: "text",
      day: "integer",
      up: "integer",
      maintenance: "integer",
      timed: "integer",
      ms: "integer",
    });
    await this.db
      .prepare(
        `INSERT INTO location_days (monitor_id, location, day, checks, up_checks, maintenance_checks, timed, sum_ms)
         SELECT r.monitor_id, r.location, r.day, 1, r.up, r.maintenance, r.timed, r.ms FROM ${rows} WHERE true
         ON CONFLICT (monitor_id, location, day) DO UPDATE SET checks = location_days.checks + 1, up_checks = location_days.up_checks + excluded.up_checks,
         maintenance_checks = location_days.maintenance_checks + excluded.maintenance_checks, timed = location_days.timed + excluded.timed, sum_ms = location_days.sum_ms + excluded.sum_ms`,
        BY_MONITOR,
      )
      .run(
        JSON.stringify(
          checks.map((c) => ({
            monitor_id: c.monitorId,
            location: c.location,
            day: Math.floor(c.at / DAY_MS),
            up: c.outcome.up ? 1 : 0,
            maintenance: c.maintenance ? 1 : 0,
            timed: c.outcome.response_time_ms === null ? 0 : 1,
            ms: c.outcome.response_time_ms ?? 0,
          })),
        ),
      );
  }

  private async rollUp(checks: readonly HeartbeatWrite[]): Promise<void> {
    const rows = this.db.dialect.jsonRows("r", {
      monitor_id: "text",
      day: "integer",
      up: "integer",
      timed: "integer",
      ms: "integer",
      histogram: "text",
      maintenance: "integer",
      degraded: "integer",
    });
    await this.db
      .prepare(
        `INSERT INTO heartbeat_days (monitor_id, day, checks, up_checks, timed, sum_ms, histogram, maintenance_checks, degraded_checks)
         SELECT r.monitor_id, r.day, 1, r.up, r.timed, r.ms, r.histogram, r.maintenance, r.degraded FROM ${rows} WHERE true
         ON CONFLICT (monitor_id, day) DO UPDATE SET checks = heartbeat_days.checks + 1, up_checks = heartbeat_days.up_checks + excluded.up_checks,
         timed = heartbeat_days.timed + excluded.timed, sum_ms = heartbeat_days.sum_ms + excluded.sum_ms, histogram = excluded.histogram,
         maintenance_checks = heartbeat_days.maintenance_checks + excluded.maintenance_checks, degraded_checks = heartbeat_days.degraded_checks + excluded.degraded_checks`,
        BY_MONITOR,
      )
      .run(
        JSON.stringify(
          checks.map((c) => {
            const ms = c.outcome.response_time_ms;
            const histogram: Histogram = c.histogram ? JSON.parse(c.histogram) : {};
            if (ms !== null) {
              const bucket = bucketOf(ms);
              histogram[bucket] = (histogram[bucket] ?? 0) + 1;
            }
            return {
              monitor_id: c.monitorId,
              day: Math.floor(c.at / DAY_MS),
              up: c.outcome.up ? 1 : 0,
              timed: ms === null ? 0 : 1,
              ms: ms ?? 0,
              histogram: JSON.stringify(histogram),
              maintenance: c.maintenance ? 1 : 0,
              degraded: c.outcome.up && c.outcome.degraded ? 1 : 0,
            };
          }),
        ),
      );
  }

  /**
   * Checks by location over the same window as `stats`, with each location's own health now:
   * `locations` first (in that order, zero checks where none ran), then any other location that
   * recorded checks in the window. `live` is decided by the caller.
   */
  async locationStats(
    monitorId: string,
    days: number,
    locations: readonly string[],
    live: (location: string) => boolean,
    now = Date.now(),
  ): Promise<LocationStats[]> {
    const today = Math.floor(now / DAY_MS);
    const rows = (await this.db
      .prepare(
        `SELECT location, SUM(checks) AS checks, SUM(up_checks) AS up, SUM(maintenance_checks) AS maint, SUM(timed) AS timed, SUM(sum_ms) AS sum_ms
         FROM location_days WHERE monitor_id = ? AND day > ? AND day <= ? GROUP BY location ORDER BY location`,
      )
      .all(monitorId, today - days, today)) as {
      location: string;
      checks: number;
      up: number;
      maint: number;
      timed: number;
      sum_ms: number;
    }[];
    const states = (await this.db
      .prepare("SELECT location, health, last_checked_at FROM location_health WHERE monitor_id = ?")
      .all(monitorId)) as { location: string; health: LocationStats["health"]; last_checked_at: number }[];
    const byLocation = new Map(rows.map((r) => [r.location, r]));
    const stateOf = new Map(states.map((r) => [r.location, r]));
    const names = [...locations, ...rows.map((r) => r.location).filter((l) => !locations.includes(l))];
    return names.map((location) => {
      const r = byLocation.get(location);
      const state = stateOf.get(location);
      const judged = r ? r.checks - r.maint : 0;
      return {
        location,
        checks: r?.checks ?? 0,
        up_checks: r?.up ?? 0,
        down_checks: r ? judged - r.up : 0,
        uptime_pct: judged === 0 ? null : round((100 * (r?.up ?? 0)) / judged),
        avg_response_ms: r?.timed ? round(r.sum_ms / r.timed, 1) : null,
        health: state?.health ?? "pending",
        live: live(location),
        last_checked_at: state ? new Date(state.last_checked_at).toISOString() : null,
      };
    });
  }

  /** Deletes heartbeats and roll-up days before `cutoff`; returns heartbeats deleted. */
  async prune(cutoff: number): Promise<number> {
    await this.db.prepare("DELETE FROM heartbeat_days WHERE day < ?").run(Math.floor(cutoff / DAY_MS));
    await this.db.prepare("DELETE FROM location_days WHERE day < ?").run(Math.floor(cutoff / DAY_MS));
    return Number(await (await this.db.prepare("DELETE FROM heartbeats WHERE checked_at < ?").run(cutoff)).changes);
  }

  /** Heartbeats of the last `hours` hours, newest first. */
  async recent(monitorId: string, hours: number, now = Date.now()): Promise<Heartbeat[]> {
    const rows = (await this.db
      .prepare("SELECT * FROM heartbeats WHERE monitor_id = ? AND checked_at >= ? ORDER BY checked_at DESC, id DESC")
      .all(monitorId, now - hours * 3_600_000)) as unknown as HeartbeatRow[];
    return rows.map(toHeartbeat);
  }

  /** Uptime % over [since, now] from the heartbeats (short windows), or null with no checks. */
  async uptime(monitorId: string, since: number): Promise<number | null> {
    const row = (await this.db
      .prepare(
        "SELECT COUNT(*) - COALESCE(SUM(maintenance), 0) AS n, SUM(up) AS up FROM heartbeats WHERE monitor_id = ? AND checked_at >= ?",
      )
      .get(monitorId, since)) as { n: number; up: number | null };
    return row.n === 0 ? null : round((100 * (row.up ?? 0)) / row.n);
  }

  /** Uptime % over the last `days` UTC days (today included) from the roll-up, or null. */
  async uptimeDays(monitorId: string, days: number, now = Date.now()): Promise<number | null> {
    const today = Math.floor(now / DAY_MS);
    const row = (await this.db
      .prepare(
        "SELECT SUM(checks - maintenance_checks) AS n, SUM(up_checks) AS up FROM heartbeat_days WHERE monitor_id = ? AND day > ? AND day <= ?",
      )
      .get(monitorId, today - days, today)) as { n: number | null; up: number | null };
    return !row.n ? null : round((100 * (row.up ?? 0)) / row.n);
  }

  /**
   * Stats over the last `days` UTC days: from midnight `days - 1` days ago until now, so the daily
   * breakdown has exactly `days` entries, the last one today so far. Read from the daily roll-up;
   * `p95_response_ms` is exact below one second and within 1% above.
   */
  async stats(monitorId: string, days: number, now = Date.now()): Promise<Stats> {
    const today = Math.floor(now / DAY_MS);
    const firstDay = today - days + 1;
    const from = firstDay * DAY_MS;
    const rows = (await this.db
      .prepare("SELECT * FROM heartbeat_days WHERE monitor_id = ? AND day >= ? AND day <= ? ORDER BY day")
      .all(monitorId, firstDay, today)) as unknown as {
      day: number;
      checks: number;
      up_checks: number;
      maintenance_checks: number;
      degraded_checks: number;
      timed: number;
      sum_ms: number;
      histogram: string;
    }[];
    const byDay = new Map(rows.map((r) => [r.day, r]));
    const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0);
    const checks = sum((r) => r.checks);
    const upChecks = sum((r) => r.up_checks);
    const maintenanceChecks = sum((r) => r.maintenance_checks);
    const degradedChecks = sum((r) => r.degraded_checks);
    const judged = checks - maintenanceChecks;
    const timed = sum((r) => r.timed);
    const incidents = await this.incidents.summary(monitorId, from, now);
    return {
      monitor_id: monitorId,
      from: new Date(from).toISOString(),
      to: new Date(now).toISOString(),
      checks,
      up_checks: upChecks,
      down_checks: judged - upChecks,
      degraded_checks: degradedChecks,
      maintenance_checks: maintenanceChecks,
      uptime_pct: judged === 0 ? null : round((100 * upChecks) / judged),
      avg_response_ms: timed === 0 ? null : round(sum((r) => r.sum_ms) / timed, 1),
      p95_response_ms: quantile(
        rows.map((r) => JSON.parse(r.histogram) as Histogram),
        0.95,
      ),
      incidents: incidents.count,
      downtime_sec: Math.round(incidents.downMs / 1000),
      daily: Array.from({ length: days }, (_, i) => {
        const d = byDay.get(firstDay + i);
        return {
          date: new Date((firstDay + i) * DAY_MS).toISOString().slice(0, 10),
          checks: d?.checks ?? 0,
          uptime_pct:
            d && d.checks > d.maintenance_checks
              ? round((100 * d.up_checks) / (d.checks - d.maintenance_checks))
              : null,
          avg_response_ms: d?.timed ? round(d.sum_ms / d.timed, 1) : null,
        };
      }),
    };
  }
}
