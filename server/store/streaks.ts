import type { DatabaseSync } from "node:sqlite";

/** How a check result moves a monitor's health: confirmations, recovery, maintenance. */
export interface HealthPolicy {
  /** Consecutive failed checks before a monitor is down. */
  confirmations: number;
  /** Consecutive passed checks before a down monitor is up again. */
  recoveryConfirmations: number;
  /** Whether a maintenance window covers the monitor now: failures then change nothing. */
  maintenance: boolean;
}

/** The policy of a monitor without the extensions: every result counts at once. */
export const IMMEDIATE: HealthPolicy = { confirmations: 1, recoveryConfirmations: 1, maintenance: false };

export type Health = "pending" | "up" | "down";

/**
 * Counts the check into the monitor's streaks (inside the caller's transaction) and returns the
 * health it leads to. A failure inside a maintenance window neither counts nor changes anything;
 * a pending monitor is up on its first pass and down after `confirmations` failures.
 */
export function advanceHealth(db: DatabaseSync, monitorId: string, health: Health, up: boolean, policy: HealthPolicy): Health {
  if (!up && policy.maintenance) return health;
  const row = db.prepare("SELECT failures, successes FROM check_streaks WHERE monitor_id = ?").get(monitorId) as
    | { failures: number; successes: number }
    | undefined;
  const failures = up ? 0 : (row?.failures ?? 0) + 1;
  const successes = up ? (row?.successes ?? 0) + 1 : 0;
  db.prepare(
    `INSERT INTO check_streaks (monitor_id, failures, successes) VALUES (?, ?, ?)
     ON CONFLICT (monitor_id) DO UPDATE SET failures = excluded.failures, successes = excluded.successes`,
  ).run(monitorId, failures, successes);
  if (!up) return failures >= policy.confirmations ? "down" : health;
  if (health === "down") return successes >= policy.recoveryConfirmations ? "up" : "down";
  return "up";
}
