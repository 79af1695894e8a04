import type { StatusDocument } from "../../api";
import { DAY_MS } from "../store/heartbeats";

/**
 * The longest a page's answer is kept without a write: what moves with time alone (24-hour
 * uptime and charts, repeating maintenance windows) is never older than this.
 */
export const MAX_KEEP_MS = 10_000;
/** Resolved incidents stay on the page this long. */
export const RECENT_MS = 14 * DAY_MS;

/**
 * Until when a page's answer computed at `now` stays true with no write to the store: the next
 * UTC midnight (a new day cell), the next start or end of a maintenance window it shows, the
 * moment a resolved incident leaves it, and at most `MAX_KEEP_MS`.
 */
export function answerExpiry(now: number, doc: Pick<StatusDocument, "maintenance" | "incidents">): number {
  const moments = [now + MAX_KEEP_MS, (Math.floor(now / DAY_MS) + 1) * DAY_MS];
  for (const w of doc.maintenance) moments.push(Date.parse(w.starts_at), Date.parse(w.ends_at));
  for (const i of doc.incidents) if (i.resolved_at !== null) moments.push(Date.parse(i.resolved_at) + RECENT_MS + 1);
  return Math.min(...moments.filter((t) => t > now));
}
