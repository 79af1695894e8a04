import type { Executor } from "./sql/executor";

/** How a check result moves a monitor's health: confirmations, recovery, maintenance, locations. */
export interface HealthPolicy {
  /** Consecutive failed checks (at one location) before that location finds the monitor down. */
  confirmations: number;
  /** Consecutive passed checks (at one location) before it finds a down monitor up again. */
  recoveryConfirmations: number;
  /** Whether a maintenance window covers the monitor now: failures then change nothing. */
  maintenance: boolean;
  /** The location that ran the check (default: the store's built-in location). */
  location?: string;
  /** The monitor's locations (default: just `location`). */
  locations?: readonly string[];
  /** Locations that must find the monitor down before it is down (default 1). */
  failureThreshold?: number;
  /** Locations served by a live checker now; a location not in it never counts as down. Default: all. */
  live?: ReadonlySet<string>;
}

/** The policy of a monitor without the extensions: every result counts at once. */
export const IMMEDIATE: HealthPolicy = { confirmations: 1, recoveryConfirmations: 1, maintenance: false };

export type Health = "pending" | "up" | "down";

/** The monitor's health after a check, and the locations that find it down. */
export interface HealthChange {
  health: Health;
  failedLocations: string[];
}

/**
 * Counts the check into its location's streaks (inside the caller's transaction) and returns the
 * health it leads to. Each location is judged on its own (confirmations, recovery); the monitor
 * is down when at least `failureThreshold` of its live locations find it down, and up when any
 * location finds it up and fewer than that find it down. A failure inside a maintenance window
 * neither counts nor changes anything.
 */
export async function advanceHealth(db: Executor, monitorId: string, health: Health, up: boolean, policy: HealthPolicy, at = Date.now()): Promise<HealthChange> {
  const location = policy.location ?? "";
  if (!up && policy.maintenance) return { health, failedLocations: await downLocations(db, monitorId, policy, location) };
  const row = await db.prepare("SELECT health, failures, successes FROM location_health WHERE monitor_id = ? AND location = ?").get(monitorId, location) as
    | { health: Health; failures: number; successes: number }
    | undefined;
  // A location with no streak yet starts from the monitor's health (streaks kept before locations are not carried over).
  const was = row?.health ?? health;
  const failures = up ? 0 : (row?.failures ?? 0) + 1;
  const successes = up ? (row?.successes ?? 0) + 1 : 0;
  const next: Health = !up ? (failures >= policy.confirmations ? "down" : was) : was === "down" ? (successes >= policy.recoveryConfirmations ? "up" : "down") : "up";
  await db.prepare(
    `INSERT INTO location_health (monitor_id, location, health, failures, successes, last_checked_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (monitor_id, location) DO UPDATE SET health = excluded.health, failures = excluded.failures,
     successes = excluded.successes, last_checked_at = excluded.last_checked_at`,
  ).run(monitorId, location, next, failures, successes, at);
  const failed = await downLocations(db, monitorId, policy, location);
  if (failed.length >= (policy.failureThreshold ?? 1)) return { health: "down", failedLocations: failed };
  const anyUp = next === "up" || (await db.prepare("SELECT 1 FROM location_health WHERE monitor_id = ? AND health = 'up' LIMIT 1").get(monitorId) !== undefined);
  return { health: anyUp ? "up" : health === "down" ? "down" : "pending", failedLocations: failed };
}

/** The monitor's locations that find it down now, served by a live checker, sorted. */
async function downLocations(db: Executor, monitorId: string, policy: HealthPolicy, location: string): Promise<string[]> {
  const mine = new Set(policy.locations ?? [location]);
  const rows = await db.prepare("SELECT location FROM location_health WHERE monitor_id = ? AND health = 'down' ORDER BY location").all(monitorId) as { location: string }[];
  return rows.map((r) => r.location).filter((l) => mine.has(l) && (l === location || !policy.live || policy.live.has(l)));
}
