import type { IncidentImpact, StatusPage, StoredIncidentRule } from "../../api";
import type { Store } from "../store";
import { type ComponentNow, componentsNow } from "./status-components";
import type { StatusIncidentService } from "./status-incidents";

/** What a rule watches right now: whether it is down, since when, its name and the components it touches. */
interface Watched {
  down: boolean;
  since: number | null;
  name: string;
  components: string[];
}

/** `{name}` and `{minutes}` filled in. */
export function fillTemplate(text: string, name: string, minutes: number): string {
  return text.replaceAll("{name}", name).replaceAll("{minutes}", String(minutes));
}

function watched(rule: StoredIncidentRule, components: Map<string, ComponentNow>): Watched {
  if (rule.component !== null) {
    const c = components.get(rule.component);
    return {
      down: c?.state === "down",
      since: c?.downSince ?? null,
      name: c?.component.name ?? rule.component,
      components: c ? [rule.component] : [],
    };
  }
  const tagged = [...components.values()].flatMap((c) =>
    c.monitors.filter((m) => m.tags.includes(rule.tag as string)).map((m) => ({ c, m })),
  );
  const down = tagged.filter(({ m }) => m.health === "down" && m.status === "active");
  const starts = down.map(({ m }) => m.down_since).filter((t): t is number => t !== null);
  return {
    down: down.length > 0,
    since: starts.length ? Math.min(...starts) : null,
    name: rule.tag as string,
    components: [...new Set(down.map(({ c }) => c.component.key))].sort(),
  };
}

/**
 * One pass of every page's incident rules: a rule whose monitors have been down for its minutes
 * opens one incident (one at a time per rule); when they are no longer down, the rule resolves it.
 */
export async function sweepIncidentRules(
  store: Store,
  incidents: StatusIncidentService,
  now = Date.now(),
): Promise<void> {
  for (const page of await store.statusPages.withRules()) await sweepPage(store, incidents, page, now);
}

async function sweepPage(store: Store, incidents: StatusIncidentService, page: StatusPage, now: number): Promise<void> {
  const components = await componentsNow(store, page.id, page.sections, now);
  for (const [i, rule] of page.incident_rules.entries()) {
    const w = watched(rule, components);
    const open = await store.statusIncidents.openOfRule(page.id, i);
    if (w.down && !open && w.since !== null && now - w.since >= rule.minutes * 60_000) {
      const impact: Record<string, IncidentImpact> = Object.fromEntries(
        w.components.map((k) => [k, "major-outage" as const]),
      );
      const message =
        rule.message ?? `${w.name} has been down since ${new Date(w.since).toISOString()}. We are investigating.`;
      await incidents.openOn(page, {
        title: fillTemplate(rule.title, w.name, rule.minutes),
        state: "investigating",
        message: fillTemplate(message, w.name, rule.minutes),
        components: impact,
        rule: i,
      });
    } else if (!w.down && open) {
      const none = Object.fromEntries(Object.keys(open.components).map((k) => [k, "none" as const]));
      await incidents.updateOn(page, open.id, "resolved", `${w.name} is operational again.`, none);
    }
  }
}
