import type { Executor } from "./sql/executor";
import type { Heartbeat } from "../../api";
import { newId } from "./ids";
import type { LocationStreak } from "./streaks";

/** What recording a check reads first, in one statement (see `HealthRepository.snapshot`). */
export interface HealthSnapshot {
  /** The monitor's health before the check. */
  health: "pending" | "up" | "down";
  /** 1 when its last check was degraded. */
  degraded: number;
  /** The day's roll-up histogram (JSON) at the check's day, or undefined when the day has none yet. */
  histogram: string | undefined;
  /** Every location's streak of the monitor. */
  streaks: LocationStreak[];
}

/**
 * The health change a check caused: `down` when an incident opened, `up` when one closed;
 * `degraded` when an up (or pending) monitor turned slow, `degraded_resolved` when it is fast again.
 */
export type Transition = "down" | "up" | "degraded" | "degraded_resolved";

/** Incidents of a window: how many touched it and how long they were down inside it. */
export interface IncidentSummary {
  count: number;
  downMs: number;
}

/**
 * A monitor's health as the checker maintains it (`health`, `last_checked_at`) and its incidents:
 * an up↔down change opens or closes one (pending→down opens one too).
 */
export class HealthRepository {
  constructor(
    private readonly db: Executor,
    /** Told which monitor's row changed (its cached read is dropped). */
    private readonly changed: (monitorId: string) => void = () => undefined,
  ) {}

  /**
   * What recording a check of an active monitor on `day` reads, in one statement: its health, its
   * degraded flag, the day's roll-up histogram and its locations' streaks. Undefined when the
   * monitor is paused or gone (nothing to record).
   */
  async snapshot(monitorId: string, day: number): Promise<HealthSnapshot | undefined> {
    const rows = (await this.db
      .prepare(
        `SELECT m.health, m.status, m.degraded, d.histogram, l.location, l.health AS location_health, l.failures, l.successes
         FROM monitors m LEFT JOIN heartbeat_days d ON d.monitor_id = m.id AND d.day = ? LEFT JOIN location_health l ON l.monitor_id = m.id
         WHERE m.id = ?`,
      )
      .all(day, monitorId)) as {
      health: HealthSnapshot["health"];
      status: string;
      degraded: number;
      histogram: string | null;
      location: string | null;
      location_health: LocationStreak["health"] | null;
      failures: number | null;
      successes: number | null;
    }[];
    const first = rows[0];
    if (first?.status !== "active") return undefined;
    return {
      health: first.health,
      degraded: first.degraded,
      histogram: first.histogram ?? undefined,
      streaks: rows.flatMap((r) =>
        r.location === null
          ? []
          : [
              {
                location: r.location,
                health: r.location_health as LocationStreak["health"],
                failures: r.failures ?? 0,
                successes: r.successes ?? 0,
              },
            ],
      ),
    };
  }

  /**
   * Sets the monitor's health after a check (as confirmations and maintenance decide it, see
   * streaks.ts) and opens or closes its incident; returns the change, if any.
   */
  async apply(
    monitorId: string,
    previous: HealthSnapshot,
    health: "pending" | "up" | "down",
    heartbeat: Heartbeat,
    at: number,
    failedLocations: readonly string[] = [],
  ): Promise<Transition | undefined> {
    // Degraded is up (no incident, counted as up) with a flag, shown as its own health.
    const degraded = health === "up" && heartbeat.status === "degraded" ? 1 : 0;
    const was = previous.degraded;
    // Announced to other replicas as this monitor's row: their reads of other monitors stay cached.
    await this.db
      .prepare("UPDATE monitors SET health = ?, degraded = ?, last_checked_at = ? WHERE id = ?", { row: 3 })
      .run(health, degraded, heartbeat.checked_at, monitorId);
    this.changed(monitorId);
    if (health === "down" && previous.health !== "down") {
      await this.db
        .prepare("INSERT INTO incidents (id, monitor_id, started_at, locations) VALUES (?, ?, ?, ?)")
        .run(newId("inc"), monitorId, at, JSON.stringify(failedLocations));
      return "down";
    }
    if (health === "up" && previous.health === "down") {
      await this.db
        .prepare("UPDATE incidents SET ended_at = ? WHERE monitor_id = ? AND ended_at IS NULL")
        .run(at, monitorId);
      return "up";
    }
    if (health === "up" && degraded !== was) return degraded ? "degraded" : "degraded_resolved";
    return undefined;
  }

  /** Incidents overlapping [from, now], and their downtime clipped to that window. */
  async summary(monitorId: string, from: number, now: number): Promise<IncidentSummary> {
    const { least, greatest } = this.db.dialect;
    const row = (await this.db
      .prepare(
        `SELECT COUNT(*) AS n, COALESCE(SUM(${least("COALESCE(ended_at, ?)", "?")} - ${greatest("started_at", "?")}), 0) AS down_ms
         FROM incidents WHERE monitor_id = ? AND started_at <= ? AND (ended_at IS NULL OR ended_at >= ?)`,
      )
      .get(now, now, from, monitorId, now, from)) as { n: number; down_ms: number };
    return { count: row.n, downMs: row.down_ms };
  }

  /** Incidents open now, across every account (a metric). */
  async openCount(): Promise<number> {
    return (
      (await this.db.prepare("SELECT COUNT(*) AS n FROM incidents WHERE ended_at IS NULL").get()) as { n: number }
    ).n;
  }

  /** Deletes closed incidents that ended before `cutoff`. */
  async prune(cutoff: number): Promise<void> {
    await this.db.prepare("DELETE FROM incidents WHERE ended_at IS NOT NULL AND ended_at < ?").run(cutoff);
  }
}
