import type { DayCell, PageIncident, PageMonitor, StatusPageView } from "./view";
import { escapeHtml as e } from "./escape";
import { LOCAL_TIMES_SCRIPT } from "./local-times";
import { incidentHtml, maintenanceHtml, utcTime as time } from "./status-incidents";
import { type PageWords, wordsOf } from "./status-locale";
import { sectionsHtml } from "./status-sections";
import { STATUS_EXTRA_CSS, STATUS_PAGE_CSS } from "./styles";

const STATE: Record<PageMonitor["status"], string> = {
  up: "✓ Up",
  degraded: "◔ Degraded",
  down: "✗ Down",
  paused: "‖ Paused",
  pending: "… Pending",
  maintenance: "⚒ Maintenance",
};

/** "degraded" with nothing down: slow, not broken. */
const slowOnly = (v: StatusPageView): boolean =>
  v.status === "degraded" &&
  !v.monitors.some((m) => m.status === "down") &&
  !v.sections.some((s) => s.components.some((c) => c.status === "down"));

function overall(v: StatusPageView, w: PageWords): string {
  if (slowOnly(v)) return w.degradedPerf;
  return {
    operational: w.operational,
    degraded: w.degradedSome,
    down: w.down,
    unknown: w.unknown,
    maintenance: w.maintenance,
  }[v.status];
}

/** A day's colour class and its label: the label says what the colour shows. */
export function dayLabel(d: DayCell): { cls: string; label: string } {
  if (d.maintenance) return { cls: "maint", label: `${d.date}: maintenance` };
  if (d.uptimePct === null) return { cls: "none", label: `${d.date}: no data` };
  const cls = d.uptimePct >= 99.5 ? "ok" : d.uptimePct >= 95 ? "warn" : "bad";
  return { cls, label: `${d.date}: ${Number(d.uptimePct.toFixed(1))}% up` };
}

function bar(m: PageMonitor): string {
  const cells = m.days.map((d) => {
    const { cls, label } = dayLabel(d);
    return `<li class="${cls}" title="${e(label)}"><span class="vh">${e(label)}</span></li>`;
  });
  return `<ol class="bar" aria-label="${e(`Uptime of ${m.name}, last ${m.days.length} days`)}">${cells.join("")}</ol>
<div class="scale muted" aria-hidden="true"><span>${m.days.length} days ago</span><span>today</span></div>`;
}

function monitor(m: PageMonitor): string {
  const uptime = m.uptimePct30d === null ? "no data" : `${m.uptimePct30d}% uptime (30 days)`;
  return `<li class="monitor"><div class="head"><h3>${e(m.name)}</h3>
<span class="state ${m.status}">${STATE[m.status]}</span></div>${bar(m)}<p class="muted">${e(uptime)}</p></li>`;
}

function incident(i: PageIncident): string {
  const end = i.endedAt ? `resolved ${time(i.endedAt)}` : "<strong>ongoing</strong>";
  return `<li><strong>${e(i.monitor)}</strong> was down from ${time(i.startedAt)}, ${end}</li>`;
}

const LEGEND = `<ul class="legend" aria-label="Legend"><li><span style="background:var(--ok)"></span>≥ 99.5% up</li>
<li><span style="background:var(--warn)"></span>95–99.5%</li><li><span style="background:var(--bad)"></span>&lt; 95%</li>
<li><span class="none" style="background:var(--none)"></span>no data</li><li><span style="background:var(--maint)"></span>maintenance</li></ul>`;

/** Where the page's own links start: `/status/<slug>`, or the root of its custom domain. */
export interface PageLinks {
  base: string;
}

/** The document's head and the header: language, noindex for private pages, the theme. */
export function pageHead(
  v: Pick<StatusPageView, "title" | "locale" | "private" | "brandColor">,
  title: string,
): string {
  const brand = v.brandColor ? `:root{--brand:${v.brandColor}}` : "";
  return `<!doctype html>
<html lang="${v.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
${v.private ? `<meta name="robots" content="noindex, nofollow">` : ""}<meta name="color-scheme" content="light dark"><title>${e(title)}</title><style>${STATUS_PAGE_CSS}${STATUS_EXTRA_CSS}${brand}</style></head>`;
}

function header(v: StatusPageView, base: string): string {
  const logo = v.logoUrl ? `<img class="logo" src="${e(v.logoUrl)}" alt="" height="40">` : "";
  return `<header class="brand">${logo}<h1><a href="${e(base || "/")}">${e(v.title)}</a></h1>${v.description ? `<p class="muted">${e(v.description)}</p>` : ""}</header>`;
}

function subscribeForm(w: PageWords, base: string): string {
  return `<section aria-labelledby="h-sub"><h2 id="h-sub">${e(w.subscribe)}</h2>
<form method="post" action="${e(`${base}/subscribe`)}" class="subscribe"><label for="sub-email">${e(w.email)}</label>
<input id="sub-email" name="email" type="email" required autocomplete="email"><button type="submit">${e(w.subscribe)}</button></form>
<p class="muted">${e(w.subscribeHint)} <a href="${e(`${base}/feed.atom`)}">Atom</a></p></section>`;
}

/** The whole page: one HTML document, styles inline, every user-given text escaped. */
export function renderStatusPage(v: StatusPageView, links: PageLinks = { base: `/status/${v.slug}` }): string {
  const w = wordsOf(v.locale);
  const names = new Map(v.sections.flatMap((s) => s.components.map((c) => [c.key, c.name] as const)));
  const open = v.statusIncidents.filter((i) => i.resolved_at === null);
  const closed = v.statusIncidents.filter((i) => i.resolved_at !== null);
  const active = open.length
    ? `<section aria-labelledby="h-active" class="active"><h2 id="h-active">${e(w.activeIncidents)}</h2>${open.map((i) => incidentHtml(i, w, links.base, names)).join("")}</section>`
    : "";
  const downPeriods = v.incidents.length ? `<ul class="incidents">${v.incidents.map(incident).join("")}</ul>` : "";
  const recent = closed.map((i) => incidentHtml(i, w, links.base, names)).join("");
  const monitors =
    v.sections.length && !v.monitors.length
      ? ""
      : `<section aria-labelledby="h-monitors"><h2 id="h-monitors">Monitors</h2>
${v.monitors.length ? `<ul class="monitors">${v.monitors.map(monitor).join("")}</ul>${LEGEND}` : `<p class="muted">No monitors on this page.</p>`}</section>`;
  return `${pageHead(v, `${v.title}: status`)}
<body><main>${header(v, links.base)}
<p class="overall ${v.status}${slowOnly(v) ? " slow" : ""}" role="status">${e(overall(v, w))}</p>
${active}${maintenanceHtml(v.maintenance, w)}${sectionsHtml(v.sections, w)}
${monitors}
<section aria-labelledby="h-incidents"><h2 id="h-incidents">${e(w.recentIncidents)}</h2>${recent}${downPeriods || recent ? downPeriods : `<p class="muted">${e(w.noIncidents)}</p>`}
<p><a href="${e(`${links.base}/history`)}">${e(w.history)}</a></p></section>
${subscribeForm(w, links.base)}
<footer class="muted">${e(w.lastUpdated)} ${time(v.updatedAt)}</footer></main>${LOCAL_TIMES_SCRIPT}</body></html>
`;
}

/** The page answered for an unknown slug. */
export const notFoundPage = (slug: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title><style>${STATUS_PAGE_CSS}</style></head>
<body><main><h1>No status page “${e(slug)}”</h1></main></body></html>
`;
