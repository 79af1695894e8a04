import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  CreateStatusPageSchema,
  envelope,
  IdParamsSchema,
  ListQuerySchema,
  listEnvelope,
  StatusDocumentSchema,
  StatusPageSchema,
  UpdateStatusPageSchema,
} from "../../api";
import { ApiError, notFound } from "../errors";
import { principalOf } from "../http/types";
import { createStatusPage, getStatusPage, statusDocument, updateStatusPage } from "../services/status-pages";

const one = { 200: envelope(StatusPageSchema) };

/** /api/v1/status-pages (list, create; get, PATCH, DELETE as extensions) and the public document. */
export async function statusPageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = fastify;
  const tags = ["status pages"];

  app.get(
    "/api/v1/status-pages",
    { schema: { tags, querystring: ListQuerySchema, response: { 200: listEnvelope(StatusPageSchema) } } },
    async (req) => {
      const page = store.statusPages.list(principalOf(req).accountId, req.query.limit, req.query.cursor);
      return { ok: true as const, data: page.items, next_cursor: page.nextCursor };
    },
  );

  app.post(
    "/api/v1/status-pages",
    { schema: { tags, body: CreateStatusPageSchema, response: { 201: envelope(StatusPageSchema) } } },
    async (req, reply) =>
      reply
        .code(201)
        .send({ ok: true as const, data: createStatusPage(store, principalOf(req).accountId, req.body) }),
  );

  // Extensions beyond the documented API (see README).
  if (fastify.settings.extensions) {
    app.get(
      "/api/v1/status-pages/:id",
      { schema: { tags, params: IdParamsSchema, response: one } },
      async (req) => ({
        ok: true as const,
        data: getStatusPage(store, principalOf(req).accountId, req.params.id),
      }),
    );

    app.patch(
      "/api/v1/status-pages/:id",
      { schema: { tags, params: IdParamsSchema, body: UpdateStatusPageSchema, response: one } },
      async (req) => ({
        ok: true as const,
        data: updateStatusPage(store, principalOf(req).accountId, req.params.id, req.body),
      }),
    );

    app.delete(
      "/api/v1/status-pages/:id",
      { schema: { tags, params: IdParamsSchema, response: one } },
      async (req) => {
        const page = store.statusPages.delete(principalOf(req).accountId, req.params.id);
        if (!page) throw notFound("status page", req.params.id);
        return { ok: true as const, data: page };
      },
    );
  }

  app.get(
    "/api/status/:file",
    {
      schema: {
        tags: ["public"],
        summary: "Public status document of /api/status/<slug>.json (no key)",
        params: z.object({ file: z.string() }),
        response: { 200: envelope(StatusDocumentSchema) },
      },
    },
    async (req) => {
      const match = /^([a-z0-9-]{3,64})\.json$/.exec(req.params.file);
      if (!match?.[1]) throw new ApiError("not_found", `No status document at ${req.url}`);
      return { ok: true as const, data: statusDocument(store, match[1]) };
    },
  );
}
