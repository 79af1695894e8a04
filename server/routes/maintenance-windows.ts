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
import { listPage } from "../services/paging";
import { batchRoutes } from "./batch";
import { errorResponses } from "./responses";
import {
  createMaintenanceWindow,
  deleteMaintenanceWindow,
  getMaintenanceWindow,
  updateMaintenanceWindow,
} from "../services/maintenance-windows";

const one = { 200: envelope(MaintenanceWindowSchema) };
const windowId = idParams(ID_PREFIX.maintenanceWindow);

/** /api/v1/maintenance-windows (extension): list, create, get, PATCH, DELETE. */
export async function maintenanceWindowRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store } = fastify;
  const tags = ["maintenance windows"];
  const summary = "Extension: maintenance windows";

  app.get(
    "/api/v1/maintenance-windows",
    { schema: { tags, summary, querystring: ListQuerySchema, response: { 200: listEnvelope(MaintenanceWindowSchema), ...errorResponses("GET", { validated: true }) } } },
    async (req) => {
      const page = await listPage(async () => await store.maintenanceWindows.list(principalOf(req).accountId, req.query.limit, req.query.cursor));
      return { ok: true as const, ...page };
    },
  );
  app.post(
    "/api/v1/maintenance-windows",
    { schema: { tags, summary, body: CreateMaintenanceWindowSchema, response: { 201: envelope(MaintenanceWindowSchema), ...errorResponses("POST") } } },
    async (req, reply) =>
      reply.code(201).send({ ok: true as const, data: await createMaintenanceWindow(store, principalOf(req).accountId, req.body) }),
  );
  app.get("/api/v1/maintenance-windows/:id", { schema: { tags, summary, params: windowId, response: { ...one, ...errorResponses("GET", { id: true }) } } }, async (req) => ({
    ok: true as const,
    data: await getMaintenanceWindow(store, principalOf(req).accountId, req.params.id),
  }));
  app.patch(
    "/api/v1/maintenance-windows/:id",
    { schema: { tags, summary, params: windowId, body: UpdateMaintenanceWindowSchema, response: { ...one, ...errorResponses("PATCH", { id: true, validated: true }) } } },
    async (req) => ({ ok: true as const, data: await updateMaintenanceWindow(store, principalOf(req).accountId, req.params.id, req.body) }),
  );
  app.delete("/api/v1/maintenance-windows/:id", { schema: { tags, summary, params: windowId, response: { ...one, ...errorResponses("DELETE", { id: true }) } } }, async (req) => ({
    ok: true as const,
    data: await deleteMaintenanceWindow(store, principalOf(req).accountId, req.params.id),
  }));
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
      get: async (p, id) => await getMaintenanceWindow(store, p.accountId, id),
      create: async (p, body) => await createMaintenanceWindow(store, p.accountId, body as never),
      update: async (p, id, body) => await updateMaintenanceWindow(store, p.accountId, id, body as never),
      delete: async (p, id) => await deleteMaintenanceWindow(store, p.accountId, id),
    },
  });
}
