import type { Executor } from "./sql/executor";
import type { Heartbeat } from "../../api";
import { newId } from "./ids";

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

  /** The health of an active monitor, or undefined when it is paused or gone (nothing to record). */
  async current(monitorId: string): Promise<Heartbeat["status"] | "pending" | undefined> {
    const row = await this.db.prepare("SELECT health, status FROM monitors WHERE id = ?").get(monitorId) as
      | { health: Heartbeat["status"] | "pending"; status: string }
      | undefined;
    return row?.status === "active" ? row.health : undefined;
  }

  /**
   * Sets the monitor's health after a check (as confirmations and maintenance decide it, see
   * streaks.ts) and opens or closes its incident; returns the change, if any.
   */
  async apply(monitorId: string, previous: string, health: "pending" | "up" | "down", heartbeat: Heartbeat, at: number, failedLocations: readonly string[] = []): Promise<Transition | undefined> {
    // Degraded is up (no incident, counted as up) with a flag, shown as its own health.
    const degraded = health === "up" && heartbeat.status === "degraded" ? 1 : 0;
    const was = (await this.db.prepare("SELECT degraded FROM monitors WHERE id = ?").get(monitorId) as { degraded: number } | undefined)?.degraded ?? 0;
    await this.db
      .prepare("UPDATE monitors SET health = ?, degraded = ?, last_checked_at = ? WHERE id = ?")
      .run(health, degraded, heartbeat.checked_at, monitorId);
    this.changed(monitorId);
    if (health === "down" && previous !== "down") {
      await this.db
        .prepare("INSERT INTO incidents (id, monitor_id, started_at, locations) VALUES (?, ?, ?, ?)")
        .run(newId("inc"), monitorId, at, JSON.stringify(failedLocations));
      return "down";
    }
    if (health === "up" && previous === "down") {
      await this.db.prepare("UPDATE incidents SET ended_at = ? WHERE monitor_id = ? AND ended_at IS NULL").run(at, monitorId);
      return "up";
    }
    if (health === "up" && degraded !== was) return degraded ? "degraded" : "degraded_resolved";
    return undefined;
  }

  /** Incidents overlapping [from, now], and their downtime clipped to that window. */
  async summary(monitorId: string, from: number, now: number): Promise<IncidentSummary> {
    const { least, greatest } = this.db.dialect;
    const row = await this.db
      .prepare(
        `SELECT COUNT(*) AS n, COALESCE(SUM(${least("COALESCE(ended_at, ?)", "?")} - ${greatest("started_at", "?")}), 0) AS down_ms
         FROM incidents WHERE monitor_id = ? AND started_at <= ? AND (ended_at IS NULL OR ended_at >= ?)`,
      )
      .get(now, now, from, monitorId, now, from) as { n: number; down_ms: number };
    return { count: row.n, downMs: row.down_ms };
  }

  /** Incidents open now, across every account (a metric). */
  async openCount(): Promise<number> {
    return (await this.db.prepare("SELECT COUNT(*) AS n FROM incidents WHERE ended_at IS NULL").get() as { n: number }).n;
  }

  /** Deletes closed incidents that ended before `cutoff`. */
  async prune(cutoff: number): Promise<void> {
    await this.db.prepare("DELETE FROM incidents WHERE ended_at IS NOT NULL AND ended_at < ?").run(cutoff);
  }
}
