import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  ChannelSchema,
  ChannelTestResultSchema,
  CreateChannelSchema,
  envelope,
  IdParamsSchema,
  ListQuerySchema,
  listEnvelope,
  UpdateChannelSchema,
} from "../../api";
import { notFound } from "../errors";
import { principalOf } from "../http/types";
import { createChannel, getChannel, testChannel, updateChannel } from "../services/channels";

const one = { 200: envelope(ChannelSchema) };

/** /api/v1/channels: list, create and test (seed); get, PATCH and DELETE (extensions). */
export async function channelRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = fastify;
  const tags = ["channels"];

  app.get(
    "/api/v1/channels",
    { schema: { tags, querystring: ListQuerySchema, response: { 200: listEnvelope(ChannelSchema) } } },
    async (req) => {
      const page = store.channels.list(principalOf(req).accountId, req.query.limit, req.query.cursor);
      return { ok: true as const, data: page.items, next_cursor: page.nextCursor };
    },
  );

  app.post(
    "/api/v1/channels",
    { schema: { tags, body: CreateChannelSchema, response: { 201: envelope(ChannelSchema) } } },
    async (req, reply) =>
      reply
        .code(201)
        .send({ ok: true as const, data: createChannel(store, principalOf(req).accountId, req.body, fastify.settings.allowPrivateTargets) }),
  );

  // Extensions beyond the documented API (see README).
  if (fastify.settings.extensions) {
    app.get(
      "/api/v1/channels/:id",
      { schema: { tags, params: IdParamsSchema, response: one } },
      async (req) => ({
        ok: true as const,
        data: getChannel(store, principalOf(req).accountId, req.params.id),
      }),
    );

    app.patch(
      "/api/v1/channels/:id",
      { schema: { tags, params: IdParamsSchema, body: UpdateChannelSchema, response: one } },
      async (req) => ({
        ok: true as const,
        data: updateChannel(store, principalOf(req).accountId, req.params.id, req.body, fastify.settings.allowPrivateTargets),
      }),
    );

    app.delete(
      "/api/v1/channels/:id",
      { schema: { tags, params: IdParamsSchema, response: one } },
      async (req) => {
        const channel = store.channels.delete(principalOf(req).accountId, req.params.id);
        if (!channel) throw notFound("channel", req.params.id);
        return { ok: true as const, data: channel };
      },
    );
  }

  app.post(
    "/api/v1/channels/:id/test",
    { schema: { tags, params: IdParamsSchema, response: { 200: envelope(ChannelTestResultSchema) } } },
    async (req) => ({
      ok: true as const,
      data: await testChannel(fastify.notifier.contextFor(principalOf(req).accountId), req.params.id),
    }),
  );
}
