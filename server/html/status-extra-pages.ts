import type { Incident, StatusPageLocale } from "../../api";
import { escapeHtml as e } from "./escape";
import { LOCAL_TIMES_SCRIPT } from "./local-times";
import { incidentHtml } from "./status-incidents";
import { wordsOf } from "./status-locale";
import { pageHead } from "./status-page";

/** What the smaller pages (permalink, history, password, notices) know of their status page. */
export interface PageFrame {
  title: string;
  locale: StatusPageLocale;
  private: boolean;
  brandColor: string | null;
  base: string;
  /** Component key → name. */
  names: ReadonlyMap<string, string>;
}

const shell = (f: PageFrame, title: string, body: string): string =>
  `${pageHead(f, title)}
<body><main><header class="brand"><p><a href="${e(f.base || "/")}">${e(f.title)}</a></p><h1>${e(title)}</h1></header>${body}</main>${LOCAL_TIMES_SCRIPT}</body></html>
`;

const asDoc = (i: Incident) => ({
  ...i,
  updates: i.updates.map((u) => ({ state: u.state, message: u.message, created_at: u.created_at })),
});

/** One incident's permalink page, with its post-mortem. */
export function incidentPage(f: PageFrame, i: Incident): string {
  return shell(f, i.title, incidentHtml(asDoc(i), wordsOf(f.locale), f.base, f.names, i.postmortem));
}

/** Every incident of the page, newest first. */
export function historyPage(f: PageFrame, incidents: readonly Incident[]): string {
  const w = wordsOf(f.locale);
  const body = incidents.length
    ? incidents.map((i) => incidentHtml(asDoc(i), w, f.base, f.names)).join("")
    : `<p class="muted">${e(w.noIncidents)}</p>`;
  return shell(f, `${f.title}: ${w.history}`, body);
}

/** The password form of a private page; `wrong` after a failed try. */
export function passwordPage(f: PageFrame, wrong: boolean): string {
  const w = wordsOf(f.locale);
  return shell(
    f,
    f.title,
    `<form method="post" action="${e(`${f.base}/login`)}" class="password">
${wrong ? `<p role="alert">✗ ${e(w.password)}</p>` : ""}<label for="pw">${e(w.password)}</label> <input id="pw" name="password" type="password" required autocomplete="current-password"> <button type="submit">${e(w.enter)}</button></form>`,
  );
}

/** A short notice (subscribed, unsubscribed, link not valid). */
export function noticePage(
  f: PageFrame,
  message: string,
  form?: { action: string; code: string; button: string },
): string {
  const formHtml = form
    ? `<form method="post" action="${e(form.action)}"><input type="hidden" name="code" value="${e(form.code)}"><button type="submit">${e(form.button)}</button></form>`
    : "";
  return shell(f, f.title, `<p>${e(message)}</p>${formHtml}`);
}
