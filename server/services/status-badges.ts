import type { Store } from "../store";
import type { PrivateStatusPage } from "../store/status-pages";
import { statusDocument } from "./status-document";

const COLOURS: Record<string, string> = {
  operational: "#1a7f37",
  degraded: "#9a6700",
  down: "#cf222e",
  maintenance: "#0969da",
  unknown: "#57606a",
};

/** A badge's text and colour: a component's (or with `key` null, the page's) state or 30-day uptime. */
export async function badgeOf(
  store: Store,
  page: PrivateStatusPage,
  key: string | null,
  kind: "state" | "uptime",
): Promise<{ label: string; value: string; colour: string } | undefined> {
  const doc = await statusDocument(store, page.slug);
  const component = key === null ? undefined : doc.sections.flatMap((s) => s.components).find((c) => c.key === key);
  if (key !== null && !component) return undefined;
  const label = component?.name ?? page.title;
  if (kind === "state") {
    const state = component?.status ?? doc.status;
    return { label, value: state, colour: COLOURS[state] ?? (COLOURS.unknown as string) };
  }
  const uptime = component
    ? component.uptime_pct_30d
    : mean(doc.sections.flatMap((s) => s.components.map((c) => c.uptime_pct_30d)));
  if (uptime === null) return { label: `${label} uptime`, value: "no data", colour: COLOURS.unknown as string };
  return {
    label: `${label} uptime`,
    value: `${Number(uptime.toFixed(2))}%`,
    colour:
      uptime >= 99.5
        ? (COLOURS.operational as string)
        : uptime >= 95
          ? (COLOURS.degraded as string)
          : (COLOURS.down as string),
  };
}

function mean(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
}
