import type { StatusPage } from "../../api";
import { windowActiveAt } from "../maintenance/schedule";
import type { Store } from "../store";
import type { StatusSubscriberService } from "./status-subscribers";

/** How far ahead a page shows upcoming maintenance. */
export const UPCOMING_MS = 14 * 86_400_000;

/** A maintenance window as a page shows it. */
export interface PageMaintenance {
  id: string;
  name: string;
  starts_at: string;
  ends_at: string;
  in_progress: boolean;
  /** Whether the window repeats (an RRULE). */
  repeats: boolean;
}

/** Every monitor a page shows: its own list and its components'. */
export const pageMonitorIds = (page: StatusPage): string[] => [
  ...new Set([...page.monitor_ids, ...page.sections.flatMap((s) => s.components.flatMap((c) => c.monitors))]),
];

/**
 * The maintenance windows of the page's monitors in progress now or starting within 14 days
 * (a repeating window shows while it is in progress, or before its first start).
 */
export async function pageMaintenance(store: Store, page: StatusPage, now = Date.now()): Promise<PageMaintenance[]> {
  const windows = await store.maintenanceWindows.forMonitors(pageMonitorIds(page));
  return windows
    .map((w) => ({
      id: w.id,
      name: w.name,
      starts_at: w.starts_at,
      ends_at: w.ends_at,
      in_progress: windowActiveAt(w, now),
      repeats: w.rrule !== null,
    }))
    .filter((w) => w.in_progress || (Date.parse(w.starts_at) > now && Date.parse(w.starts_at) - now <= UPCOMING_MS))
    .sort((a, b) => (a.starts_at < b.starts_at ? -1 : 1));
}

/** Tells each page's subscribers once when a window of its monitors is in progress (each start once). */
export async function sweepMaintenanceStarts(
  store: Store,
  subscribers: StatusSubscriberService,
  now = Date.now(),
): Promise<void> {
  for (const page of await store.statusPages.withSubscribers()) {
    for (const w of await pageMaintenance(store, page, now)) {
      if (!w.in_progress) continue;
      // A repeating window's occurrence is named by the day it is in progress on.
      await subscribers.maintenanceStarted(page, w, w.repeats ? new Date(now).toISOString().slice(0, 10) : w.starts_at);
    }
  }
}
