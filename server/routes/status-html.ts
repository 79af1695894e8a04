import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import { notFoundPage, renderStatusPage } from "../html/status-page";

/** Seconds browsers and proxies may keep the page: short, since health changes by the minute. */
const MAX_AGE_SEC = 30;

/**
 * GET /status/<slug>: the public status page as HTML for people (the JSON document stays at
 * /api/status/<slug>.json). No key; rate limited per address like the JSON document.
 */
export async function statusHtmlRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { slug: string } }>("/status/:slug", { schema: { hide: true } }, async (req, reply) => {
    const slug = req.params.slug;
    reply.header("content-type", "text/html; charset=utf-8").header("x-content-type-options", "nosniff");
    reply.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
    let html: string;
    try {
      if (!/^[a-z0-9-]{3,64}$/.test(slug)) throw new ApiError("not_found", "no such page");
      html = renderStatusPage(await app.services.statusPages.page(slug));
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "not_found") throw err;
      return reply.code(404).header("cache-control", "no-store").send(notFoundPage(slug));
    }
    return reply.header("cache-control", `public, max-age=${MAX_AGE_SEC}`).send(html);
  });
}
