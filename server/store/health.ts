import type { Executor } from "./sql/executor";
import type { Heartbeat } from "../../api";
import { newId } from "./ids";
import type { LocationStreak } from "./streaks";

/** What recording a check reads first, in one statement (see `HealthRepository.snapshots`). */
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

/** What a check writes of its monitor's row (see `HealthRepository.apply`). */
export interface CheckedRow {
  health: "pending" | "up" | "down";
  /** 1 when the check was degraded (health stays `up`). */
  degraded: number;
  last_checked_at: string;
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
    /**
     * Told, in the transaction that writes it, which monitor's row a check changed and to what (its
     * cached read takes the new values once committed, see `MonitorRepository.checked`).
     */
    private readonly changed: (monitorId: string, row: CheckedRow) => void = () => undefined,
  ) {}

  /**
   * What recording checks of active monitors reads, in one statement: for each monitor of `checks`
   * (at most once each), its health, its degraded flag, the roll-up histogram of the check's day
   * and its locations' streaks. A monitor paused or gone has none (nothing to record).
   */
  async snapshots(checks: readonly { monitorId: string; day: number }[]): Promise<Map<string, HealthSnapshot>> {
    const snapshots = new Map<string, HealthSnapshot>();
    if (checks.length === 0) return snapshots;
    const rows = (await this.db
      .prepare(
        `SELECT m.id, m.health, m.status, m.degraded, d.histogram, l.location, l.health AS location_health, l.failures, l.successes
         FROM ${this.db.dialect.jsonRows("c", { id: "text", day: "integer" })} JOIN monitors m ON m.id = c.id
         LEFT JOIN heartbeat_days d ON d.monitor_id = m.id AND d.day = c.day LEFT JOIN location_health l ON l.monitor_id = m.id`,
      )
      .all(JSON.stringify(checks.map((c) => ({ id: c.monitorId, day: c.day }))))) as {
      id: string;
      health: HealthSnapshot["health"];
      status: string;
      degraded: number;
      histogram: string | null;
      location: string | null;
      location_health: LocationStreak["health"] | null;
      failures: number | null;
      successes: number | null;
    }[];
    for (const r of rows) {
      if (r.status !== "active") continue;
      let snapshot = snapshots.get(r.id);
      if (!snapshot) {
        snapshot = { health: r.health, degraded: r.degraded, histogram: r.histogram ?? undefined, streaks: [] };
        snapshots.set(r.id, snapshot);
      }
      if (r.location !== null)
        snapshot.streaks.push({
          location: r.location,
          health: r.location_health as LocationStreak["health"],
          failures: r.failures ?? 0,
          successes: r.successes ?? 0,
        });
    }
    return snapshots;
  }

  /**
   * Sets monitors' health after their checks (as confirmations and maintenance decide it, see
   * streaks.ts), one statement for all, and opens or closes their incidents; returns each
   * check's change, if any. One check per monitor.
   */
  async apply(
    checks: readonly {
      monitorId: string;
      previous: HealthSnapshot;
      health: "pending" | "up" | "down";
      heartbeat: Heartbeat;
      at: number;
      failedLocations: readonly string[];
    }[],
  ): Promise<(Transition | undefined)[]> {
    if (checks.length === 0) return [];
    // Degraded is up (no incident, counted as up) with a flag, shown as its own health.
    const degraded = checks.map((c) => (c.health === "up" && c.heartbeat.status === "degraded" ? 1 : 0));
    const rows = this.db.dialect.jsonRows("r", {
      id: "text",
      health: "text",
      degraded: "integer",
      checked_at: "text",
    });
    // Announced to other replicas as these monitors' rows: their reads of other monitors stay cached.
    await this.db
      .prepare(
        `UPDATE monitors SET health = r.health, degraded = r.degraded, last_checked_at = r.checked_at FROM ${rows} WHERE monitors.id = r.id`,
        { rows: { param: 0, key: "id" } },
      )
      .run(
        JSON.stringify(
          checks.map((c, i) => ({
            id: c.monitorId,
            health: c.health,
            degraded: degraded[i],
            checked_at: c.heartbeat.checked_at,
          })),
        ),
      );
    const transitions: (Transition | undefined)[] = [];
    for (const [i, c] of checks.entries()) {
      this.changed(c.monitorId, {
        health: c.health,
        degraded: degraded[i] as number,
        last_checked_at: c.heartbeat.checked_at,
      });
      transitions.push(await this.transition(c, degraded[i] as number));
    }
    return transitions;
  }

  /** Opens or closes the monitor's incident for its new health; the change, if any. */
  private async transition(
    c: {
      monitorId: string;
      previous: HealthSnapshot;
      health: "pending" | "up" | "down";
      at: number;
      failedLocations: readonly string[];
    },
    degraded: number,
  ): Promise<Transition | undefined> {
    const { monitorId, previous, health, at } = c;
    if (health === "down" && previous.health !== "down") {
      await this.db
        .prepare("INSERT INTO incidents (id, monitor_id, started_at, locations) VALUES (?, ?, ?, ?)")
        .run(newId("inc"), monitorId, at, JSON.stringify(c.failedLocations));
      return "down";
    }
    if (health === "up" && previous.health === "down") {
      await this.db
        .prepare("UPDATE incidents SET ended_at = ? WHERE monitor_id = ? AND ended_at IS NULL")
        .run(at, monitorId);
      return "up";
    }
    if (health === "up" && degraded !== previous.degraded) return degraded ? "degraded" : "degraded_resolved";
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
