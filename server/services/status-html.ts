import type { StatusDocument, StatusPageLocale } from "../../api";
import { BAR_DAYS, type PageSection, pageSections } from "./status-components-view";
import type { Store } from "../store";
import { recentIncidents } from "../store/incidents";
import { statusDocument } from "./status-document";

const DAY_MS = 86_400_000;
const INCIDENTS_SHOWN = 10;

/** One day of an uptime bar. `maintenance` marks a day inside a maintenance window. */
export interface DayCell {
  date: string;
  checks: number;
  uptimePct: number | null;
  maintenance: boolean;
}

/** A monitor as the page shows it: the public document's entry plus its 90 days. */
export interface PageMonitor {
  name: string;
  status: StatusDocument["monitors"][number]["status"];
  uptimePct30d: number | null;
  days: DayCell[];
}

/** An incident by monitor name (never its id). */
export interface PageIncident {
  monitor: string;
  startedAt: string;
  endedAt: string | null;
}

/** Everything the HTML page renders; nothing the JSON document keeps private (ids, URLs, headers). */
export interface StatusPageView {
  slug: string;
  title: string;
  locale: StatusPageLocale;
  logoUrl: string | null;
  brandColor: string | null;
  /** A password or address ranges guard it: search engines are asked not to index it. */
  private: boolean;
  sections: PageSection[];
  /** Incidents people wrote (and rules opened): open ones first. */
  statusIncidents: StatusDocument["incidents"];
  maintenance: StatusDocument["maintenance"];
  description: string | null;
  status: StatusDocument["status"];
  updatedAt: string;
  monitors: PageMonitor[];
  incidents: PageIncident[];
}

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
