import { pageSections } from "./status-components-view";
import { BAR_DAYS, type StatusPageView } from "../html/view";
import type { Store } from "../store";
import { recentIncidents } from "../store/incidents";
import { statusDocument } from "./status-document";

const DAY_MS = 86_400_000;
const INCIDENTS_SHOWN = 10;

/**
 * Days under a maintenance window, per monitor id. There are no maintenance windows yet: when
 * they exist, this returns their days and the bar shows them distinctly.
 */
function maintenanceDays(_store: Store, _monitorId: string): ReadonlySet<string> {
  return new Set();
}

/** The page of `slug`, from the public document, the daily roll-up and the incidents. */
export async function statusPageView(store: Store, slug: string, now = Date.now()): Promise<StatusPageView> {
  const doc = await statusDocument(store, slug, now);
  const page = await store.statusPages.bySlug(slug);
  // Same rows, same order as the document's monitors: the ids stay on this side.
  const rows = page ? await store.statusPages.publicMonitors(page.id) : [];
  const names = new Map(rows.map((r, i) => [r.id, doc.monitors[i]?.name ?? ""]));
  const monitors = await Promise.all(
    doc.monitors.map(async (m, i) => {
      const id = rows[i]?.id as string;
      const maintenance = maintenanceDays(store, id);
      const days = (await store.heartbeats.stats(id, BAR_DAYS, now)).daily.map((d) => ({
        date: d.date,
        checks: d.checks,
        uptimePct: d.uptime_pct,
        maintenance: maintenance.has(d.date),
      }));
      return { name: m.name, status: m.status, uptimePct30d: m.uptime_pct_30d, days };
    }),
  );
  const incidents = (await recentIncidents(store.db, [...names.keys()], now - BAR_DAYS * DAY_MS, INCIDENTS_SHOWN)).map(
    (r) => ({
      monitor: names.get(r.monitor_id) ?? "",
      startedAt: new Date(r.started_at).toISOString(),
      endedAt: r.ended_at === null ? null : new Date(r.ended_at).toISOString(),
    }),
  );
  const states = new Map(
    doc.sections.flatMap((s) =>
      s.components.map((c) => [c.key, { status: c.status, uptime: c.uptime_pct_30d }] as const),
    ),
  );
  return {
    slug: doc.slug,
    title: doc.title,
    locale: page?.locale ?? "en",
    logoUrl: page?.logo_url ?? null,
    brandColor: page?.brand_color ?? null,
    private: page ? page.password_set || page.allowed_cidrs.length > 0 : false,
    sections: page ? await pageSections(store, page, states, now) : [],
    statusIncidents: doc.incidents,
    maintenance: doc.maintenance,
    description: doc.description,
    status: doc.status,
    updatedAt: doc.updated_at,
    monitors,
    incidents,
  };
}
