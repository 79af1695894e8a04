import type { ComponentState, StoredComponent, StoredSection } from "../../api";
import type { Store } from "../store";
import type { ManualState } from "../store/status-component-states";
import { type ComponentMonitorRow, componentMonitors } from "../store/status-pages";

/** A monitor's state in a component's words. */
async function monitorState(store: Store, m: ComponentMonitorRow, now: number): Promise<ComponentState> {
  if (m.status === "paused") return "unknown";
  if (await store.maintenanceWindows.inMaintenance(m.id, now)) return "maintenance";
  if (m.health === "up") return "operational";
  if (m.health === "pending") return "unknown";
  return m.health;
}

const ORDER: readonly ComponentState[] = ["down", "degraded", "maintenance", "operational", "unknown"];

/** The worst of some states: down, then degraded, maintenance, operational; unknown only when all are. */
export function worstState(states: readonly ComponentState[]): ComponentState {
  for (const s of ORDER) if (states.includes(s)) return s;
  return "unknown";
}

/** A component's state from its monitors' states and its rule. */
export function componentState(
  c: StoredComponent,
  states: readonly ComponentState[],
  slow: boolean,
  manual?: ManualState,
): ComponentState {
  if (c.rule === "manual") return manual?.state ?? "operational";
  const known = states.filter((s) => s !== "unknown");
  if (c.rule === "all-down") {
    const down = known.filter((s) => s === "down").length;
    if (down > 0 && down === known.length) return "down";
    if (down > 0) return "degraded";
  }
  const worst = worstState(states);
  if (c.rule === "response-time" && slow && worst === "operational") return "degraded";
  return worst;
}

/** One component with its state now, and since when it has been down (epoch ms; null when it is not). */
export interface ComponentNow {
  component: StoredComponent;
  state: ComponentState;
  downSince: number | null;
  monitors: ComponentMonitorRow[];
}

/** Every component of the sections with its state now, in order, keyed by component key. */
export async function componentsNow(
  store: Store,
  pageId: string,
  sections: readonly StoredSection[],
  now = Date.now(),
): Promise<Map<string, ComponentNow>> {
  const all = sections.flatMap((s) => s.components);
  const rows = await componentMonitors(store.db, [...new Set(all.flatMap((c) => c.monitors))]);
  const manual = await store.componentStates.all(pageId);
  const out = new Map<string, ComponentNow>();
  for (const c of all) {
    const monitors = c.monitors.map((id) => rows.get(id)).filter((m): m is ComponentMonitorRow => m !== undefined);
    const states = await Promise.all(monitors.map(async (m) => await monitorState(store, m, now)));
    const slow =
      c.threshold !== null &&
      monitors.some(
        (m) => m.health === "up" && m.last_response_ms !== null && m.last_response_ms > (c.threshold as number),
      );
    const state = componentState(c, states, slow, manual.get(c.key));
    out.set(c.key, { component: c, state, downSince: state === "down" ? downSince(c, monitors) : null, monitors });
  }
  return out;
}

/** Since when a down component has been down: all-down waits for the last monitor, the others for the first. */
function downSince(c: StoredComponent, monitors: readonly ComponentMonitorRow[]): number | null {
  const starts = monitors.map((m) => m.down_since).filter((t): t is number => t !== null);
  if (starts.length === 0) return null;
  return c.rule === "all-down" ? Math.max(...starts) : Math.min(...starts);
}

/**
 * The page's overall state from its components: `down` when every component that knows is down,
 * `degraded` when some is down or degraded, `maintenance` when some is under maintenance,
 * `operational` when all that know are, `unknown` when none knows.
 */
export function overallState(
  states: readonly ComponentState[],
): "operational" | "degraded" | "down" | "unknown" | "maintenance" {
  const known = states.filter((s) => s !== "unknown");
  if (known.length === 0) return "unknown";
  if (known.every((s) => s === "down")) return "down";
  if (known.some((s) => s === "down" || s === "degraded")) return "degraded";
  if (known.some((s) => s === "maintenance")) return "maintenance";
  return "operational";
}

/**
 * The sections of a page as a view shows them: each section's name and its components in order,
 * each with its key, name and description plus what `more` says of it.
 */
export async function sectionsView<T extends object>(
  sections: readonly StoredSection[],
  more: (c: StoredComponent) => Promise<T>,
): Promise<{ name: string; components: ({ key: string; name: string; description: string | null } & T)[] }[]> {
  return await Promise.all(
    sections.map(async (s) => ({
      name: s.name,
      components: await Promise.all(
        s.components.map(async (c) => ({ key: c.key, name: c.name, description: c.description, ...(await more(c)) })),
      ),
    })),
  );
}
