import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PrivateStatusPage } from "../store/status-pages";
import { escapeHtml } from "../html/escape";
import { LOCAL_TIMES_CSP_SOURCE } from "../html/local-times";
import { type PageFrame, passwordPage } from "../html/status-extra-pages";
import { notFoundPage } from "../html/status-page";

/** A page resolved from the request, and where its own links start. */
export interface Resolved {
  page: PrivateStatusPage;
  /** `/status/<slug>`, or `` at the page's custom domain. */
  base: string;
}

const SLUG = /^[a-z0-9-]{3,64}$/;

/** Whether `slug` may name a page (anything else is 404 without a look). */
export const validSlug = (slug: string): boolean => SLUG.test(slug);

/** The page's access cookie's name. */
export const cookieName = (page: { id: string }): string => `status_access_${page.id}`;

/** One cookie of the request. */
export function cookieOf(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

/** The host the request named, lower-case, without its port. */
export function hostOf(req: FastifyRequest): string {
  return req.hostname.toLowerCase().replace(/\.$/, "");
}

/**
 * The HTML headers every page answer carries: a strict policy that allows the page's own forms,
 * an https logo, and one script, by its hash (the one that shows times in the viewer's zone).
 */
export const HTML_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "x-content-type-options": "nosniff",
  "content-security-policy": `default-src 'none'; script-src ${LOCAL_TIMES_CSP_SOURCE}; style-src 'unsafe-inline'; img-src https:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
};

/** Sets HTML_HEADERS on the reply. */
export function htmlHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers(HTML_HEADERS);
}

/** The frame the small pages need. */
export function frameOf(r: Resolved): PageFrame {
  const p = r.page;
  return {
    title: p.title,
    locale: p.locale,
    private: p.password_set || p.allowed_cidrs.length > 0,
    brandColor: p.brand_color,
    base: r.base,
    names: new Map(p.sections.flatMap((s) => s.components.map((c) => [c.key, c.name] as const))),
  };
}

/**
 * The page of the request (by slug, or at its custom domain), once the viewer may see it; else
 * the answer is sent (404 for an unknown page or host, the password form, or 403) and undefined
 * is returned.
 */
export async function resolvePage(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  slug: string | undefined,
): Promise<Resolved | undefined> {
  const service = app.services.statusPages;
  const page =
    slug === undefined
      ? await service.publicPage({ domain: hostOf(req) })
      : SLUG.test(slug)
        ? await service.publicPage({ slug })
        : undefined;
  if (!page) {
    htmlHeaders(reply)
      .code(404)
      .header("cache-control", "no-store")
      .send(notFoundPage(slug ?? hostOf(req)));
    return undefined;
  }
  const resolved = { page, base: slug === undefined ? "" : `/status/${page.slug}` };
  const access = service.access(page, req.ip, cookieOf(req, cookieName(page)));
  if (access === "allowed") return resolved;
  htmlHeaders(reply).header("cache-control", "no-store").header("x-robots-tag", "noindex");
  if (access === "refused") {
    reply
      .code(403)
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Forbidden</title></head><body><main><h1>${escapeHtml(page.title)}</h1><p>This page is not shown to your address.</p></main></body></html>\n`,
      );
  } else {
    reply.code(401).send(passwordPage(frameOf(resolved), false));
  }
  return undefined;
}

/**
 * Cache-Control of a page whose answer carries validators: a public page may be kept by browsers
 * and proxies but is asked for again each time (a 304 while unchanged), so that it is never older
 * than the server's; a private one is never stored.
 */
export function revalidated(r: Resolved): string {
  return r.page.password_set || r.page.allowed_cidrs.length ? "private, no-store" : "public, no-cache";
}

/** Cache-Control of a page answer: short and shared for a public page, never stored for a private one. */
export function cacheFor(r: Resolved, maxAgeSec: number): string {
  return r.page.password_set || r.page.allowed_cidrs.length ? "private, no-store" : `public, max-age=${maxAgeSec}`;
}
