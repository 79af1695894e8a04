import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { issuesToDetails, SubscribeSchema } from "../../api";
import { ApiError, validationFailed } from "../errors";
import { atomFeed } from "../html/atom";
import { badgeSvg } from "../html/badge";
import { noticePage, passwordPage } from "../html/status-extra-pages";
import { cacheFor, cookieName, frameOf, htmlHeaders, resolvePage } from "./status-resolve";

type Req = FastifyRequest<{
  Params: { slug?: string; key?: string; kind?: string };
  Querystring: { code?: string };
  Body: unknown;
}>;

const FORM = "application/x-www-form-urlencoded";
const BADGE = /^(state|uptime)\.svg$/;

const field = (body: unknown, name: string): string | undefined => {
  const v = (body as Record<string, unknown> | null)?.[name];
  return typeof v === "string" ? v : undefined;
};

/**
 * What people do with a status page besides reading it: subscribe (email with double opt-in, or a
 * signed webhook), confirm, unsubscribe, give a private page's password, follow its Atom feed and
 * embed its badges. At /status/<slug>/… and at the root of the page's custom domain.
 */
export async function statusPublicRoutes(app: FastifyInstance): Promise<void> {
  // HTML forms post url-encoded bodies (these routes only: the API speaks JSON).
  app.addContentTypeParser(FORM, { parseAs: "string", bodyLimit: 4096 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const pages = app.services.statusPages;
  const subscribers = app.services.statusSubscribers;

  const subscribe = async (req: Req, reply: FastifyReply) => {
    const r = await resolvePage(app, req, reply, req.params.slug);
    if (!r) return reply;
    const fromForm = (req.headers["content-type"] ?? "").startsWith(FORM);
    const parsed = SubscribeSchema.safeParse(fromForm ? { email: field(req.body, "email") } : req.body);
    if (!parsed.success) {
      if (fromForm)
        return htmlHeaders(reply)
          .code(422)
          .send(noticePage(frameOf(r), "✗ Please give a valid email address."));
      throw validationFailed(issuesToDetails(parsed.error.issues));
    }
    const message = await subscribers.subscribe(r.page, parsed.data, req.ip);
    if (fromForm)
      return htmlHeaders(reply)
        .code(202)
        .header("cache-control", "no-store")
        .send(noticePage(frameOf(r), message));
    return reply.code(202).send({ ok: true, data: { message } });
  };

  const confirm = async (req: Req, reply: FastifyReply) => {
    const r = await resolvePage(app, req, reply, req.params.slug);
    if (!r) return reply;
    const ok = await subscribers.confirm(r.page, req.query.code ?? "");
    return htmlHeaders(reply)
      .code(ok ? 200 : 404)
      .header("cache-control", "no-store")
      .send(
        noticePage(
          frameOf(r),
          ok ? "✓ Subscribed. Every mail has a link to unsubscribe." : "✗ This link is not valid (any more).",
        ),
      );
  };

  // GET shows a button (mail scanners follow links); POST unsubscribes (also one-click, RFC 8058).
  const unsubscribeForm = async (req: Req, reply: FastifyReply) => {
    const r = await resolvePage(app, req, reply, req.params.slug);
    if (!r) return reply;
    return htmlHeaders(reply)
      .header("cache-control", "no-store")
      .send(
        noticePage(frameOf(r), "Stop the mails of this page?", {
          action: `${r.base}/unsubscribe`,
          code: req.query.code ?? "",
          button: "Unsubscribe",
        }),
      );
  };
  const unsubscribe = async (req: Req, reply: FastifyReply) => {
    const r = await resolvePage(app, req, reply, req.params.slug);
    if (!r) return reply;
    const code = field(req.body, "code") ?? req.query.code ?? "";
    await subscribers.unsubscribe(r.page, code);
    return htmlHeaders(reply)
      .header("cache-control", "no-store")
      .send(noticePage(frameOf(r), "✓ Unsubscribed: no more mails from this page."));
  };

  const login = async (req: Req, reply: FastifyReply) => {
    const slug = req.params.slug;
    const page =
      slug === undefined
        ? await pages.publicPage({ domain: req.hostname.toLowerCase() })
        : await pages.publicPage({ slug });
    if (!page) throw new ApiError("not_found", "No status page here");
    const base = slug === undefined ? "" : `/status/${page.slug}`;
    const token = pages.login(page, field(req.body, "password") ?? "");
    if (!token)
      return htmlHeaders(reply)
        .code(401)
        .header("cache-control", "no-store")
        .send(passwordPage(frameOf({ page, base }), true));
    const secure = req.protocol === "https" ? "; Secure" : "";
    return reply
      .header(
        "set-cookie",
        `${cookieName(page)}=${token}; Path=${base || "/"}; HttpOnly; SameSite=Lax; Max-Age=604800${secure}`,
      )
      .header("cache-control", "no-store")
      .redirect(base || "/", 303);
  };

  const feed = async (req: Req, reply: FastifyReply) => {
    const r = await resolvePage(app, req, reply, req.params.slug);
    if (!r) return reply;
    const url = `${req.protocol}://${req.host}${r.base}`;
    const xml = atomFeed(r.page, url, await pages.incidents(r.page), new Date().toISOString());
    return reply.type("application/atom+xml; charset=utf-8").header("cache-control", cacheFor(r, 60)).send(xml);
  };

  const badge = async (req: Req, reply: FastifyReply) => {
    const r = await resolvePage(app, req, reply, req.params.slug);
    if (!r) return reply;
    const kind = BADGE.exec(req.params.kind ?? "")?.[1] as "state" | "uptime" | undefined;
    const found = kind
      ? await pages.badge(r.page, req.params.key === "page" ? null : (req.params.key ?? null), kind)
      : undefined;
    if (!found) throw new ApiError("not_found", "No such badge");
    const svg = badgeSvg(found.label, found.value, found.colour);
    const etag = `"${createHash("sha256").update(svg).digest("base64url").slice(0, 22)}"`;
    reply.header("etag", etag).header("cache-control", cacheFor(r, 60)).header("x-content-type-options", "nosniff");
    if (req.headers["if-none-match"] === etag) return reply.code(304).send();
    return reply.type("image/svg+xml; charset=utf-8").send(svg);
  };

  for (const prefix of ["/status/:slug", ""]) {
    app.post(`${prefix}/subscribe`, { schema: { hide: true } }, subscribe);
    app.get(`${prefix}/confirm`, { schema: { hide: true } }, confirm);
    app.get(`${prefix}/unsubscribe`, { schema: { hide: true } }, unsubscribeForm);
    app.post(`${prefix}/unsubscribe`, { schema: { hide: true } }, unsubscribe);
    app.post(`${prefix}/login`, { schema: { hide: true } }, login);
    app.get(`${prefix}/feed.atom`, { schema: { hide: true } }, feed);
    app.get(`${prefix}/badges/:key/:kind`, { schema: { hide: true } }, badge);
  }
}
