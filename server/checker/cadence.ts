/**
 * The arithmetic of a fixed cadence, shared by both schedules of checks: the built-in checker's
 * timers (checker.ts) and the agents' lease queues (agents/leases.ts, agents/lease-queue.ts).
 */
import { createHash } from "node:crypto";

/** At start, checks with no recent result are spread over at most this long. */
export const START_SPREAD_MS = 10_000;

/** A stable offset in [0, span) for `key` (a monitor, or a monitor at a location), so restarts keep its phase. */
export function phase(key: string, span: number): number {
  return span <= 0 ? 0 : createHash("sha1").update(key).digest().readUInt32BE(0) % span;
}

/**
 * Which checks due at start are spread by their phase (over the interval, at most
 * `START_SPREAD_MS`): every one due now (`"due"`), only those never checked (`"unchecked"`), or
 * none (`false`, each is due at once).
 */
export type StartSpread = "due" | "unchecked" | false;

/** When the first check of `key` after a start is due: an interval after the last (`undefined`: never), not before `now`. */
export function startDue(
  key: string,
  intervalMs: number,
  last: number | undefined,
  now: number,
  spread: StartSpread,
): number {
  const due = last === undefined ? now : last + intervalMs;
  const spreads = spread === "due" ? due <= now : spread === "unchecked" && last === undefined;
  return Math.max(due, now) + (spreads ? phase(key, Math.min(intervalMs, START_SPREAD_MS)) : 0);
}

/** The check after the one due at `due`, on the fixed cadence: checks missed by `now` are skipped, not run in a burst. */
export function nextDue(due: number, intervalMs: number, now: number): number {
  let next = due + intervalMs;
  if (next <= now) next += Math.ceil((now - next + 1) / intervalMs) * intervalMs;
  return next;
}
