import type { StatusDocument } from "../../api";
import { escapeHtml as e } from "./escape";
import type { PageWords } from "./status-locale";

type DocIncident = StatusDocument["incidents"][number];

/** A time in UTC, machine-readable in `datetime`. */
export const utcTime = (iso: string): string =>
  `<time datetime="${e(iso)}">${e(iso.slice(0, 16).replace("T", " "))} UTC</time>`;

/** One incident: its title (a link to its permalink), state and updates, newest first. */
export function incidentHtml(
  i: DocIncident,
  w: PageWords,
  base: string,
  names: ReadonlyMap<string, string>,
  postmortem?: string | null,
): string {
  const affected = Object.entries(i.components)
    .filter(([, impact]) => impact !== "none")
    .map(([k, impact]) => `${names.get(k) ?? k} (${impact})`);
  const updates = i.updates
    .map(
      (u) =>
        `<li><strong>${e(w.incidentStates[u.state])}</strong> · ${utcTime(u.created_at)}<p>${e(u.message)}</p></li>`,
    )
    .join("");
  return `<article class="incident ${i.resolved_at ? "resolved" : "open"}"><h3><a href="${e(`${base}/incidents/${i.id}`)}">${e(i.title)}</a></h3>
<p class="muted">${e(w.incidentStates[i.state])}${affected.length ? ` · ${e(affected.join(", "))}` : ""}</p><ol class="updates">${updates}</ol>
${postmortem ? `<h4>${e(w.postmortem)}</h4><p class="postmortem">${e(postmortem)}</p>` : ""}</article>`;
}

/** Maintenance windows in progress and upcoming. */
export function maintenanceHtml(windows: StatusDocument["maintenance"], w: PageWords): string {
  if (!windows.length) return "";
  const items = windows
    .map(
      (m) =>
        `<li><strong>${e(m.in_progress ? w.inProgress : w.upcoming)}</strong>: ${e(m.name)} · ${utcTime(m.starts_at)} – ${utcTime(m.ends_at)}</li>`,
    )
    .join("");
  return `<section aria-labelledby="h-maint"><h2 id="h-maint">${e(w.maintenanceTitle)}</h2><ul class="maintenance">${items}</ul></section>`;
}
