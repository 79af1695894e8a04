import type { FastifyInstance } from "fastify";
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
      // Asked for together with the page, so that both share one look at the store's commits;
      // sent only once the viewer may see it.
      const kept = statusPages.documentAnswer(slug, serialize);
      kept.catch(() => undefined);
      // A private page's document is as private as the page: its address range or its cookie.
      const page = await statusPages.publicPage({ slug });
      if (!page) throw new ApiError("not_found", `No status page "${slug}"`);
      if (statusPages.access(page, req.ip, cookieOf(req, cookieName(page))) !== "allowed") {
        throw new ApiError("unauthorized", "This status page is private: open it and give its password first");
      }
      const answer = await kept;
      return sendAnswer(req, reply.type("application/json; charset=utf-8"), answer, revalidated({ page, base: "" }));
    },
  );
}
