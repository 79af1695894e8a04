import type { DayCell, PageIncident, PageMonitor, StatusPageView } from "../services/status-html";
import { escapeHtml as e } from "./escape";
import { STATUS_PAGE_CSS } from "./styles";

const OVERALL: Record<StatusPageView["status"], string> = {
  operational: "✓ All systems operational",
  degraded: "! Some systems are down",
  down: "✗ All systems are down",
  unknown: "… No checks yet",
  maintenance: "⚒ Under maintenance",
};
const STATE: Record<PageMonitor["status"], string> = { up: "✓ Up", degraded: "◔ Degraded", down: "✗ Down", paused: "‖ Paused", pending: "… Pending", maintenance: "⚒ Maintenance" };

/** "degraded" with nothing down: slow, not broken. */
const slowOnly = (v: StatusPageView): boolean => v.status === "degraded" && !v.monitors.some((m) => m.status === "down");
const overall = (v: StatusPageView): string => (slowOnly(v) ? "◔ Degraded performance" : OVERALL[v.status]);

/** A day's colour class and its label: the label says what the colour shows. */
export function dayLabel(d: DayCell): { cls: string; label: string } {
  if (d.maintenance) return { cls: "maint", label: `${d.date}: maintenance` };
  if (d.uptimePct === null) return { cls: "none", label: `${d.date}: no data` };
  const cls = d.uptimePct >= 99.5 ? "ok" : d.uptimePct >= 95 ? "warn" : "bad";
  return { cls, label: `${d.date}: ${Number(d.uptimePct.toFixed(1))}% up` };
}

const time = (iso: string) => `<time datetime="${e(iso)}">${e(iso.slice(0, 16).replace("T", " "))} UTC</time>`;

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

/** The whole page: one HTML document, styles inline, every user-given text escaped. */
export function renderStatusPage(v: StatusPageView): string {
  const incidents = v.incidents.length
    ? `<ul class="incidents">${v.incidents.map(incident).join("")}</ul>`
    : `<p class="muted">No incidents in the last 90 days.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${e(v.title)}: status</title><style>${STATUS_PAGE_CSS}</style></head>
<body><main><header><h1>${e(v.title)}</h1>${v.description ? `<p class="muted">${e(v.description)}</p>` : ""}</header>
<p class="overall ${v.status}${slowOnly(v) ? " slow" : ""}" role="status">${overall(v)}</p>
<section aria-labelledby="h-monitors"><h2 id="h-monitors">Monitors</h2>
${v.monitors.length ? `<ul class="monitors">${v.monitors.map(monitor).join("")}</ul>${LEGEND}` : `<p class="muted">No monitors on this page.</p>`}</section>
<section aria-labelledby="h-incidents"><h2 id="h-incidents">Recent incidents</h2>${incidents}</section>
<footer class="muted">Last updated ${time(v.updatedAt)}</footer></main></body></html>
`;
}

/** The page answered for an unknown slug. */
export const notFoundPage = (slug: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title><style>${STATUS_PAGE_CSS}</style></head>
<body><main><h1>No status page “${e(slug)}”</h1></main></body></html>
`;
