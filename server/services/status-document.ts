import type { StatusDocument } from "../../api";
import { ApiError } from "../errors";
import type { Store } from "../store";
import { DAY_MS } from "../store/heartbeats";

/**
 * The public document: names and health only. Overall `unknown` until a monitor has been
 * checked; `operational` when every checked one is up, `down` when all are down, else `degraded`
 * (some down, or some slower than their `degraded_response_ms`);
 * `maintenance` when a window covers a monitor and none is down.
 */
export async function statusDocument(store: Store, slug: string, now = Date.now()): Promise<StatusDocument> {
  const page = await store.statusPages.bySlug(slug);
  if (!page) throw new ApiError("not_found", `No status page "${slug}"`);
  const monitors = await Promise.all((await store.statusPages.publicMonitors(page.id)).map(async (m) => ({
    name: (JSON.parse(m.spec) as { name: string }).name,
    status:
      m.status === "paused"
        ? ("paused" as const)
        : await store.maintenanceWindows.inMaintenance(m.id, now)
          ? ("maintenance" as const)
          : m.health,
    uptime_pct_24h: await store.heartbeats.uptime(m.id, now - DAY_MS),
    uptime_pct_30d: await store.heartbeats.uptimeDays(m.id, 30, now),
    last_checked_at: m.last_checked_at,
  })));
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
        ? slow ? "degraded" : "operational"
        : down === checked.length
          ? "down"
          : "degraded";
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    status,
    updated_at: new Date(now).toISOString(),
    monitors,
  };
}
