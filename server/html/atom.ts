import type { Incident } from "../../api";
import { escapeHtml as e } from "./escape";

/** The page's incidents as an Atom feed: one entry per incident, updated with each of its updates. */
export function atomFeed(
  page: { title: string; slug: string },
  pageUrl: string,
  incidents: readonly Incident[],
  now: string,
): string {
  const updated = incidents.reduce(
    (latest, i) => (i.updated_at > latest ? i.updated_at : latest),
    incidents[0]?.updated_at ?? now,
  );
  const entries = incidents.map((i) => {
    const url = `${pageUrl}/incidents/${i.id}`;
    const text = i.updates.map((u) => `${u.created_at} ${u.state}: ${u.message}`).join("\n\n");
    return `<entry><id>${e(url)}</id><title>${e(`${i.title} (${i.state})`)}</title><updated>${e(i.updated_at)}</updated><published>${e(i.created_at)}</published>
<link rel="alternate" type="text/html" href="${e(url)}"/><content type="text">${e(text)}</content></entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>${e(pageUrl)}</id><title>${e(`${page.title}: incidents`)}</title><updated>${e(updated)}</updated>
<link rel="self" type="application/atom+xml" href="${e(`${pageUrl}/feed.atom`)}"/><link rel="alternate" type="text/html" href="${e(pageUrl)}"/>
${entries.join("\n")}
</feed>
`;
}
