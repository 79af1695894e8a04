import { RRule } from "rrule";
import type { MaintenanceWindowSpec } from "../../api";

/**
 * The wall-clock time of `at` in `zone`, as a Date whose UTC fields are that wall time. rrule
 * computes recurrences in this "floating" form (its documented way to handle time zones), so a
 * window at 02:00 Europe/Berlin stays at 02:00 across DST changes.
 */
export function wallClock(at: number, zone: string): Date {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return new Date(Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")));
}

/** Whether the window is in effect at `now`: within [start, end) of the first or any repeated span. */
export function windowActiveAt(w: MaintenanceWindowSpec, now = Date.now()): boolean {
  const start = Date.parse(w.starts_at);
  const end = Date.parse(w.ends_at);
  if (now >= start && now < end) return true;
  if (w.rrule === null || now < start) return false;
  const rule = new RRule({
    ...RRule.parseString(w.rrule.replace(/^RRULE:/i, "")),
    dtstart: wallClock(start, w.time_zone),
  });
  const nowWall = wallClock(now, w.time_zone);
  const last = rule.before(nowWall, true);
  return last !== null && nowWall.getTime() < last.getTime() + (end - start);
}
