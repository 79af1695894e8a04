import type { StatusDocument } from "../../api";
import { ApiError } from "../errors";
import type { Store } from "../store";
import { DAY_MS } from "../store/heartbeats";
import { componentsNow, overallState, sectionsView } from "./status-components";
import { RECENT_MS } from "./status-expiry";
import { pageMaintenance } from "./status-maintenance";

/**
 * The public document: names and health only. Overall `unknown` until a monitor has been
 * checked; `operational` when every checked one is up, `down` when all are down, else `degraded`
 * (some down, or some slower than their `degraded_response_ms`);
 * `maintenance` when a window covers a monitor and none is down.
 */
export async function statusDocument(store: Store, slug: string, now = Date.now()): Promise<StatusDocument> {
  const page = await store.statusPages.bySlug(slug);
  if (!page) throw new ApiError("not_found", `No status page "${slug}"`);
  const monitors = await Promise.all(
    (await store.statusPages.publicMonitors(page.id)).map(async (m) => ({
      name: (JSON.parse(m.spec) as { name: string }).name,
      status:
        m.status === "paused"
          ? ("paused" as const)
          : (await store.maintenanceWindows.inMaintenance(m.id, now))
            ? ("maintenance" as const)
            : m.health,
      uptime_pct_24h: await store.heartbeats.uptime(m.id, now - DAY_MS),
      uptime_pct_30d: await store.heartbeats.uptimeDays(m.id, 30, now),
      last_checked_at: m.last_checked_at,
    })),
  );
  const checked = monitors.filter((m) => m.status === "up" || m.status === "degraded" || m.status === "down");
  const down = checked.filter((m) => m.status === "down").length;
  const slow = checked.some((m) => m.status === "degraded");
  const maintenance = monitors.some((m) => m.status === "maintenance");
  const status =
    down === 0 && maintenance
      ? "maintenance"
      : checked.length === 0
        ? "unknown"
        : down === 0
          ? slow
            ? "degraded"
            : "operational"
          : down === checked.length
            ? "down"
            : "degraded";
  const components = await componentsNow(store, page.id, page.sections, now);
  const sections = await sectionsView(page.sections, async (c) => ({
    status: components.get(c.key)?.state ?? ("unknown" as const),
    uptime_pct_30d: await componentUptime(store, c.monitors, now),
  }));
  const incidents = (await store.statusIncidents.list(page.id, "all", 50))
    .filter((i) => i.resolved_at === null || now - Date.parse(i.resolved_at) <= RECENT_MS)
    .sort((a, b) => Number(a.resolved_at !== null) - Number(b.resolved_at !== null))
    .map((i) => ({
      id: i.id,
      title: i.title,
      state: i.state,
      components: i.components,
      created_at: i.created_at,
      updated_at: i.updated_at,
      resolved_at: i.resolved_at,
      updates: i.updates.map((u) => ({ state: u.state, message: u.message, created_at: u.created_at })),
    }));
  const windows = (await pageMaintenance(store, page, now)).map(({ name, starts_at, ends_at, in_progress }) => ({
    name,
    starts_at,
    ends_at,
    in_progress,
  }));
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    // A page with components follows them; one without follows its monitors, as before.
    status: page.sections.length ? overallState([...components.values()].map((c) => c.state)) : status,
    updated_at: new Date(now).toISOString(),
    monitors,
    sections,
    incidents,
    maintenance: windows,
  };
}

/** A component's 30-day uptime: the mean of its monitors' (null without checks or monitors). */
export async function componentUptime(
  store: Store,
  monitorIds: readonly string[],
  now: number,
): Promise<number | null> {
  const values = (
    await Promise.all(monitorIds.map(async (id) => await store.heartbeats.uptimeDays(id, 30, now)))
  ).filter((v): v is number => v !== null);
  return values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100 : null;
}
