import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  ChannelSchema,
  ChannelTestResultSchema,
  CreateChannelSchema,
  DeliverySchema,
  envelope,
  ID_PREFIX,
  idParams,
  ListQuerySchema,
  UpdateChannelSchema,
} from "../../api";
import { z } from "zod";
import { principalOf } from "../http/types";
import { crudRoutes } from "./crud";
import { errorResponses } from "./responses";

const params = idParams(ID_PREFIX.channel);

/** /api/v1/channels: list, create and test (seed); get, PATCH and DELETE (extensions). */
export async function channelRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const channels = fastify.services.channels;
  crudRoutes(fastify, {
    path: "/api/v1/channels",
    tag: "channels",
    item: ChannelSchema,
    create: CreateChannelSchema,
    update: UpdateChannelSchema,
    query: ListQuerySchema,
    params,
    service: channels,
    itemRoutes: fastify.settings.extensions,
  });

  app.post(
    "/api/v1/channels/:id/test",
    {
      schema: {
        tags: ["channels"],
        params,
        response: { 200: envelope(ChannelTestResultSchema), ...errorResponses("POST", { id: true, extra: [502] }) },
      },
    },
    async (req) => ({ ok: true as const, data: await channels.test(principalOf(req), req.params.id) }),
  );

  if (!fastify.settings.extensions) return;
  app.get(
    "/api/v1/channels/:id/deliveries",
    {
      schema: {
        tags: ["channels"],
        params,
        description:
          "The channel's latest 100 notifications, newest first: each one's kind, status, attempts and the receiver's reason (extension).",
        response: { 200: envelope(z.array(DeliverySchema)), ...errorResponses("GET", { id: true }) },
      },
    },
    async (req) => ({ ok: true as const, data: await channels.deliveries(principalOf(req), req.params.id) }),
  );
}
