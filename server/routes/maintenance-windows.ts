import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  CreateMaintenanceWindowSchema,
  envelope,
  ID_PREFIX,
  idParams,
  ListQuerySchema,
  listEnvelope,
  MaintenanceWindowSchema,
  UpdateMaintenanceWindowSchema,
} from "../../api";
import { principalOf } from "../http/types";
import { batchRoutes } from "./batch";
import { errorResponses } from "./responses";

const one = { 200: envelope(MaintenanceWindowSchema) };
const windowId = idParams(ID_PREFIX.maintenanceWindow);

/** /api/v1/maintenance-windows (extension): list, create, get, PATCH, DELETE. */
export async function maintenanceWindowRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = fastify.services.maintenanceWindows;
  const tags = ["maintenance windows"];
  const summary = "Extension: maintenance windows";

  app.get(
    "/api/v1/maintenance-windows",
    {
      schema: {
        tags,
        summary,
        querystring: ListQuerySchema,
        response: { 200: listEnvelope(MaintenanceWindowSchema), ...errorResponses("GET", { validated: true }) },
      },
    },
    async (req) => ({ ok: true as const, ...(await service.list(principalOf(req), req.query)) }),
  );
  app.post(
    "/api/v1/maintenance-windows",
    {
      schema: {
        tags,
        summary,
        body: CreateMaintenanceWindowSchema,
        response: { 201: envelope(MaintenanceWindowSchema), ...errorResponses("POST") },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return { ok: true as const, data: await service.create(principalOf(req), req.body) };
    },
  );
  app.get(
    "/api/v1/maintenance-windows/:id",
    { schema: { tags, summary, params: windowId, response: { ...one, ...errorResponses("GET", { id: true }) } } },
    async (req) => ({
      ok: true as const,
      data: await service.get(principalOf(req), req.params.id),
    }),
  );
  app.patch(
    "/api/v1/maintenance-windows/:id",
    {
      schema: {
        tags,
        summary,
        params: windowId,
        body: UpdateMaintenanceWindowSchema,
        response: { ...one, ...errorResponses("PATCH", { id: true, validated: true }) },
      },
    },
    async (req) => ({ ok: true as const, data: await service.update(principalOf(req), req.params.id, req.body) }),
  );
  app.delete(
    "/api/v1/maintenance-windows/:id",
    { schema: { tags, summary, params: windowId, response: { ...one, ...errorResponses("DELETE", { id: true }) } } },
    async (req) => ({
      ok: true as const,
      data: await service.delete(principalOf(req), req.params.id),
    }),
  );
  if (!fastify.settings.batchWrites) return;
  batchRoutes(fastify, {
    path: "/api/v1/maintenance-windows",
    tag: tags[0] as string,
    item: MaintenanceWindowSchema,
    create: CreateMaintenanceWindowSchema,
    update: UpdateMaintenanceWindowSchema,
    query: ListQuerySchema,
    params: windowId,
    itemRoutes: true,
    service: {
      list: () => {
        throw new Error("not used by batches");
      },
      get: async (p, id) => await service.get(p, id),
      create: async (p, body) => await service.create(p, body as never),
      update: async (p, id, body) => await service.update(p, id, body as never),
      delete: async (p, id) => await service.delete(p, id),
    },
  });
}
