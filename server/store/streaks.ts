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

/** One location's streak of a monitor, as stored. */
export interface LocationStreak {
  location: string;
  health: Health;
  failures: number;
  successes: number;
}

/** A location's streak after a check, to be stored (see `saveStreaks`). */
export interface StreakWrite extends LocationStreak {
  monitorId: string;
  /** When the check ran (epoch ms). */
  at: number;
}

/**
 * Counts the check into its location's streak and returns the health it leads to, with the
 * streak to store (none when nothing changes). Each location is judged on its own
 * (confirmations, recovery); the monitor is down when at least `failureThreshold` of its live
 * locations find it down, and up when any location finds it up and fewer than that find it down.
 * A failure inside a maintenance window neither counts nor changes anything. `streaks`: every
 * location's streak of the monitor as the transaction read them (one read for the whole record,
 * see `HealthRepository.snapshots`).
 */
export function advanceHealth(
  monitorId: string,
  health: Health,
  up: boolean,
  policy: HealthPolicy,
  at: number,
  streaks: readonly LocationStreak[],
): HealthChange & { streak?: StreakWrite } {
  const location = policy.location ?? "";
  if (!up && policy.maintenance) return { health, failedLocations: downLocations(streaks, policy, location) };
  const row = streaks.find((s) => s.location === location);
  // A location with no streak yet starts from the monitor's health (streaks kept before locations are not carried over).
  const was = row?.health ?? health;
  const failures = up ? 0 : (row?.failures ?? 0) + 1;
  const successes = up ? (row?.successes ?? 0) + 1 : 0;
  const next: Health = !up
    ? failures >= policy.confirmations
      ? "down"
      : was
    : was === "down"
      ? successes >= policy.recoveryConfirmations
        ? "up"
        : "down"
      : "up";
  const streak: StreakWrite = { monitorId, location, health: next, failures, successes, at };
  const after = [...streaks.filter((s) => s.location !== location), { location, health: next, failures, successes }];
  const failed = downLocations(after, policy, location);
  if (failed.length >= (policy.failureThreshold ?? 1)) return { health: "down", failedLocations: failed, streak };
  const anyUp = after.some((s) => s.health === "up");
  return { health: anyUp ? "up" : health === "down" ? "down" : "pending", failedLocations: failed, streak };
}

/** Stores locations' streaks (inside the caller's transaction), in one statement; one per monitor and location. */
export async function saveStreaks(db: Executor, streaks: readonly StreakWrite[]): Promise<void> {
  if (streaks.length === 0) return;
  const rows = db.dialect.jsonRows("r", {
    monitor_id: "text",
    location: "text",
    health: "text",
    failures: "integer",
    successes: "integer",
    at: "integer",
  });
  await db
    .prepare(
      `INSERT INTO location_health (monitor_id, location, health, failures, successes, last_checked_at)
       SELECT r.monitor_id, r.location, r.health, r.failures, r.successes, r.at FROM ${rows} WHERE true
       ON CONFLICT (monitor_id, location) DO UPDATE SET health = excluded.health, failures = excluded.failures,
       successes = excluded.successes, last_checked_at = excluded.last_checked_at`,
      { rows: { param: 0, key: "monitor_id" } },
    )
    .run(
      JSON.stringify(
        streaks.map((s) => ({
          monitor_id: s.monitorId,
          location: s.location,
          health: s.health,
          failures: s.failures,
          successes: s.successes,
          at: s.at,
        })),
      ),
    );
}

/** The monitor's locations that find it down now, served by a live checker, sorted. */
function downLocations(streaks: readonly LocationStreak[], policy: HealthPolicy, location: string): string[] {
  const mine = new Set(policy.locations ?? [location]);
  return (
    streaks
      .filter((s) => s.health === "down")
      .map((s) => s.location)
      // In the order SQL's ORDER BY gives text in C collation (code units).
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .filter((l) => mine.has(l) && (l === location || !policy.live || policy.live.has(l)))
  );
}
