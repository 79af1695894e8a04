import type { ComponentState, Incident, StatusPage, StoredComponent } from "../../api";
import { BAR_DAYS, type ComponentDay, type PageSection, type ResponseChart } from "../html/view";
import type { Store } from "../store";
import { responseSeries } from "../store/status-pages";
import { sectionsView } from "./status-components";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The last {@link BAR_DAYS} days, today the last, as `YYYY-MM-DD`. */
const dates = (now: number): string[] => {
  const today = Math.floor(now / DAY_MS);
  return Array.from({ length: BAR_DAYS }, (_, i) =>
    new Date((today - BAR_DAYS + 1 + i) * DAY_MS).toISOString().slice(0, 10),
  );
};

/** The incident titles touching the component on each date. */
function incidentDays(c: StoredComponent, incidents: readonly Incident[], now: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const i of incidents) {
    if (
      !(i.components[c.key] && i.components[c.key] !== "none") &&
      !i.updates.some((u) => u.components[c.key] && u.components[c.key] !== "none")
    )
      continue;
    const end = i.resolved_at ? Date.parse(i.resolved_at) : now;
    for (let d = Math.floor(Date.parse(i.created_at) / DAY_MS); d <= Math.floor(end / DAY_MS); d++) {
      const date = new Date(d * DAY_MS).toISOString().slice(0, 10);
      out.set(date, [...(out.get(date) ?? []), i.title]);
    }
  }
  return out;
}

async function days(
  store: Store,
  c: StoredComponent,
  incidents: readonly Incident[],
  now: number,
): Promise<ComponentDay[]> {
  const stats = await Promise.all(
    c.monitors.map(async (id) => (await store.heartbeats.stats(id, BAR_DAYS, now)).daily),
  );
  const touched = incidentDays(c, incidents, now);
  return dates(now).map((date, i) => {
    const values = stats.map((s) => s[i]).filter((d) => d !== undefined && d.uptime_pct !== null) as {
      uptime_pct: number;
      checks: number;
    }[];
    const uptimePct = values.length
      ? Math.round((values.reduce((a, d) => a + d.uptime_pct, 0) / values.length) * 100) / 100
      : null;
    const titles = touched.get(date) ?? [];
    const worst =
      uptimePct === null && !titles.length
        ? "none"
        : uptimePct !== null && uptimePct < 95
          ? "down"
          : (uptimePct !== null && uptimePct < 99.5) || titles.length
            ? "degraded"
            : "operational";
    return { date, checks: stats.reduce((a, s) => a + (s[i]?.checks ?? 0), 0), uptimePct, worst, incidents: titles };
  });
}

async function chart(store: Store, ids: readonly string[], label: "24h" | "7d", now: number): Promise<ResponseChart> {
  const [span, bucket] = label === "24h" ? [24 * HOUR_MS, 30 * 60_000] : [7 * DAY_MS, 4 * HOUR_MS];
  const count = span / bucket;
  const first = Math.floor((now - span) / bucket) * bucket + bucket;
  const series = await responseSeries(store.db, ids, first, bucket);
  return { label, points: Array.from({ length: count }, (_, i) => series.get(first + i * bucket) ?? null) };
}

/** The page's sections as the HTML shows them: states from the document, days and charts from the store. */
export async function pageSections(
  store: Store,
  page: StatusPage,
  states: ReadonlyMap<string, { status: ComponentState; uptime: number | null }>,
  now: number,
): Promise<PageSection[]> {
  const incidents = await store.statusIncidents.list(page.id, "all", 200);
  return await sectionsView(page.sections, async (c) => ({
    status: states.get(c.key)?.status ?? ("unknown" as const),
    uptimePct30d: states.get(c.key)?.uptime ?? null,
    manual: c.rule === "manual",
    days: await days(store, c, incidents, now),
    charts: c.monitors.length
      ? [await chart(store, c.monitors, "24h", now), await chart(store, c.monitors, "7d", now)]
      : [],
  }));
}
