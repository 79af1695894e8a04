import type { ComponentDay, PageComponent, PageSection, ResponseChart } from "./view";
import { escapeHtml as e } from "./escape";
import type { PageWords } from "./status-locale";

const CELL: Record<ComponentDay["worst"], string> = { operational: "ok", degraded: "warn", down: "bad", none: "none" };

/** A day's label: the date, its uptime, and the incidents of that day. */
export function componentDayLabel(d: ComponentDay, w: PageWords): string {
  const uptime = d.uptimePct === null ? w.noData : `${Number(d.uptimePct.toFixed(2))}%`;
  return [`${d.date}: ${uptime}`, ...d.incidents].join(" · ");
}

function cells(c: PageComponent, w: PageWords): string {
  const items = c.days.map((d) => {
    const label = componentDayLabel(d, w);
    const tip = d.incidents.length ? `<span class="tip" aria-hidden="true">${e(label)}</span>` : "";
    return `<li class="${CELL[d.worst]}" tabindex="0" title="${e(label)}"><span class="vh">${e(label)}</span>${tip}</li>`;
  });
  return `<ol class="bar" aria-label="${e(`${c.name}: ${c.days.length}`)}">${items.join("")}</ol>
<div class="scale muted" aria-hidden="true"><span>${e(w.daysAgo(c.days.length))}</span><span>${e(w.today)}</span></div>`;
}

/** A response-time chart as an SVG polyline, its figures in its label (no script needed). */
export function chartSvg(chart: ResponseChart, w: PageWords): string {
  const values = chart.points.filter((p): p is number => p !== null);
  const max = Math.max(1, ...values);
  const step = 300 / Math.max(1, chart.points.length - 1);
  const segments: string[] = [];
  let current: string[] = [];
  chart.points.forEach((p, i) => {
    if (p === null) {
      if (current.length) segments.push(current.join(" "));
      current = [];
      return;
    }
    current.push(`${(i * step).toFixed(1)},${(58 - (p / max) * 54).toFixed(1)}`);
  });
  if (current.length) segments.push(current.join(" "));
  const mean = values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : null;
  const summary =
    mean === null
      ? `${w.responseTime} (${chart.label}): ${w.noData}`
      : `${w.responseTime} (${chart.label}): ⌀ ${mean} ms, max ${max} ms`;
  const lines = segments
    .map((pts) =>
      pts.includes(" ")
        ? `<polyline points="${pts}"/>`
        : `<circle cx="${pts.split(",")[0]}" cy="${pts.split(",")[1]}" r="1.5"/>`,
    )
    .join("");
  return `<figure class="chart"><svg viewBox="0 0 300 60" preserveAspectRatio="none" role="img" aria-label="${e(summary)}">${lines}</svg><figcaption class="muted">${e(summary)}</figcaption></figure>`;
}

function component(c: PageComponent, w: PageWords): string {
  const uptime = c.uptimePct30d === null ? w.noData : `${c.uptimePct30d}% ${w.uptime30}`;
  const charts = c.charts.length ? `<div class="charts">${c.charts.map((ch) => chartSvg(ch, w)).join("")}</div>` : "";
  return `<li class="component" id="c-${e(c.key)}"><div class="head"><h3>${e(c.name)}</h3>
<span class="state ${c.status}">${e(w.states[c.status])}</span></div>${c.description ? `<p class="muted">${e(c.description)}</p>` : ""}
${c.manual ? "" : `${cells(c, w)}<p class="muted">${e(uptime)}</p>${charts}`}</li>`;
}

/** The page's sections, each a heading and its components. */
export function sectionsHtml(sections: readonly PageSection[], w: PageWords): string {
  return sections
    .map(
      (s, i) =>
        `<section aria-labelledby="h-s${i}"><h2 id="h-s${i}">${e(s.name)}</h2><ul class="components">${s.components.map((c) => component(c, w)).join("")}</ul></section>`,
    )
    .join("\n");
}
