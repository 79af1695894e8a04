import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  CreateStatusPageSchema,
  envelope,
  ID_PREFIX,
  idParams,
  ListQuerySchema,
  type StatusDocument,
  StatusDocumentSchema,
  StatusPageSchema,
  UpdateStatusPageSchema,
} from "../../api";
import { ApiError } from "../errors";
import { crudRoutes } from "./crud";
import { sendAnswer } from "./conditional";
import { serializerCompiler } from "../http/serializer";
import { cookieName, cookieOf, revalidated } from "./status-resolve";
import { errorResponses } from "./responses";
import type { PageAnswer } from "../services/page-answer";
import type { PrivateStatusPage } from "../store/status-pages";

/** `<slug>.json`: the file name of a public status document. */
const DOCUMENT = /^([a-z0-9-]{3,64})\.json$/;

/** /api/v1/status-pages (list, create; get, PATCH, DELETE as extensions) and the public document. */
export async function statusPageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const statusPages = fastify.services.statusPages;
  crudRoutes(fastify, {
    path: "/api/v1/status-pages",
    tag: "status pages",
    item: StatusPageSchema,
    create: CreateStatusPageSchema,
    update: UpdateStatusPageSchema,
    query: ListQuerySchema,
    params: idParams(ID_PREFIX.statusPage),
    service: statusPages,
    itemRoutes: fastify.settings.extensions,
    createErrors: [409],
    updateErrors: [409],
  });

  // The document's bytes are kept (see StatusPageService.documentAnswer), written as the response schema writes them.
  const documentEnvelope = envelope(StatusDocumentSchema);
  const write = serializerCompiler({
    schema: documentEnvelope,
    method: "GET",
    url: "/api/status/:file",
    httpStatus: "200",
  });
  const serialize = (data: StatusDocument) => write({ ok: true, data });
  app.get(
    "/api/status/:file",
    {
      schema: {
        tags: ["public"],
        summary: "Public status document of /api/status/<slug>.json (no key)",
        security: [],
        params: z.strictObject({ file: z.string().max(80) }),
        response: { 200: documentEnvelope, ...errorResponses("GET", { public: true, extra: [401] }) },
      },
    },
    async (req, reply) => {
      const slug = DOCUMENT.exec(req.params.file)?.[1];
      if (!slug) throw new ApiError("not_found", "No status document at this address");
      const kept = await statusPages.keptAnswer(slug);
      if (kept) return send(req, reply, kept.page, kept.answer);
      // Asked for together with the page, so that both share one look at the store's commits;
      // sent only once the viewer may see it.
      const computed = statusPages.documentAnswer(slug, serialize);
      computed.catch(() => undefined);
      const page = await statusPages.publicPage({ slug });
      if (!page) throw new ApiError("not_found", `No status page "${slug}"`);
      return send(req, reply, page, computed);
    },
  );

  /** The document's answer, once the viewer may see the page (a private page's document is as private as the page). */
  function send(
    req: FastifyRequest,
    reply: FastifyReply,
    page: PrivateStatusPage,
    answer: PageAnswer | Promise<PageAnswer>,
  ): FastifyReply | Promise<FastifyReply> {
    if (statusPages.access(page, req.ip, cookieOf(req, cookieName(page))) !== "allowed") {
      throw new ApiError("unauthorized", "This status page is private: open it and give its password first");
    }
    const type = reply.type("application/json; charset=utf-8");
    const cache = revalidated({ page, base: "" });
    return answer instanceof Promise
      ? answer.then((a) => sendAnswer(req, type, a, cache))
      : sendAnswer(req, type, answer, cache);
  }
}
