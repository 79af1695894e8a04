import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { historyPage, incidentPage } from "../html/status-extra-pages";
import { sendAnswer } from "./conditional";
import {
  cacheFor,
  cookieName,
  cookieOf,
  frameOf,
  htmlHeaders,
  resolvePage,
  revalidated,
  validSlug,
} from "./status-resolve";

/** Seconds browsers and proxies may keep the page: short, since health changes by the minute. */
const MAX_AGE_SEC = 30;

type Req = FastifyRequest<{ Params: { slug?: string; incident?: string } }>;

/**
 * The public status page as HTML for people, at /status/<slug> and at the root of its custom
 * domain (`Host: status.example.com`; an unknown host gets 404), with its incident history and a
 * permalink per incident. No key; rate limited per address like the JSON document.
 */
export async function statusHtmlRoutes(app: FastifyInstance): Promise<void> {
  const pages = app.services.statusPages;
  const page = async (req: Req, reply: FastifyReply) => {
    // At /status/<slug>, asked for together with the page (one look at the store's commits for
    // both); sent only once the viewer may see it.
    const slug = req.params.slug;
    // A busy public page: its record and answer kept, nothing to compute.
    const kept = slug !== undefined && validSlug(slug) ? await pages.keptAnswer(slug, `/status/${slug}`) : undefined;
    if (kept && pages.access(kept.page, req.ip, cookieOf(req, cookieName(kept.page))) === "allowed")
      return sendAnswer(
        req,
        htmlHeaders(reply),
        kept.answer,
        revalidated({ page: kept.page, base: `/status/${slug}` }),
      );
    const early =
      slug === undefined || !validSlug(slug) ? undefined : app.services.statusPages.pageAnswer(slug, `/status/${slug}`);
    early?.catch(() => undefined);
    const r = await resolvePage(app, req, reply, slug);
    if (!r) return reply;
    const answer = await (early ?? app.services.statusPages.pageAnswer(r.page.slug, r.base));
    return sendAnswer(req, htmlHeaders(reply), answer, revalidated(r));
  };
  const history = async (req: Req, reply: FastifyReply) => {
    const r = await resolvePage(app, req, reply, req.params.slug);
    if (!r) return reply;
    const incidents = await app.services.statusPages.incidents(r.page);
    return htmlHeaders(reply)
      .header("cache-control", cacheFor(r, MAX_AGE_SEC))
      .send(historyPage(frameOf(r), incidents));
  };
  const incident = async (req: Req, reply: FastifyReply) => {
    const r = await resolvePage(app, req, reply, req.params.slug);
    if (!r) return reply;
    const found = (await app.services.statusPages.incidents(r.page)).find((i) => i.id === req.params.incident);
    if (!found)
      return htmlHeaders(reply)
        .code(404)
        .header("cache-control", "no-store")
        .send(historyPage(frameOf(r), []));
    return htmlHeaders(reply)
      .header("cache-control", cacheFor(r, MAX_AGE_SEC))
      .send(incidentPage(frameOf(r), found));
  };
  for (const prefix of ["/status/:slug", ""]) {
    app.get(prefix || "/", { schema: { hide: true } }, page);
    app.get(`${prefix}/history`, { schema: { hide: true } }, history);
    app.get(`${prefix}/incidents/:incident`, { schema: { hide: true } }, incident);
  }
}
