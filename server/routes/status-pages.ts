import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  CreateStatusPageSchema,
  envelope,
  ID_PREFIX,
  idParams,
  ListQuerySchema,
  StatusDocumentSchema,
  StatusPageSchema,
  UpdateStatusPageSchema,
} from "../../api";
import { ApiError } from "../errors";
import { crudRoutes } from "./crud";
import { cookieName, cookieOf } from "./status-resolve";
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

  app.get(
    "/api/status/:file",
    {
      schema: {
        tags: ["public"],
        summary: "Public status document of /api/status/<slug>.json (no key)",
        security: [],
        params: z.strictObject({ file: z.string().max(80) }),
        response: { 200: envelope(StatusDocumentSchema), ...errorResponses("GET", { public: true, extra: [401] }) },
      },
    },
    async (req) => {
      const slug = DOCUMENT.exec(req.params.file)?.[1];
      if (!slug) throw new ApiError("not_found", "No status document at this address");
      // A private page's document is as private as the page: its address range or its cookie.
      const page = await statusPages.publicPage({ slug });
      if (page && statusPages.access(page, req.ip, cookieOf(req, cookieName(page))) !== "allowed") {
        throw new ApiError("unauthorized", "This status page is private: open it and give its password first");
      }
      return { ok: true as const, data: await statusPages.document(slug) };
    },
  );
}
