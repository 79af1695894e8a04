import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  envelope,
  HeartbeatSchema,
  HeartbeatsQuerySchema,
  ID_PREFIX,
  idParams,
  ListQuerySchema,
  MonitorSchema,
  StatsQuerySchema,
  StatsSchema,
} from "../../api";
import { principalOf } from "../http/types";
import { crudRoutes } from "./crud";
import { errorResponses } from "./responses";

const ListMonitorsQuerySchema = ListQuerySchema.extend({
  tag: z.string().max(50).optional(),
  status: z.enum(["active", "paused"]).optional(),
});

const params = idParams(ID_PREFIX.monitor);

/** /api/v1/monitors: CRUD, pause/resume, heartbeats and stats. */
export async function monitorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const monitors = fastify.services.monitors;
  const tags = ["monitors"];
  crudRoutes(fastify, {
    path: "/api/v1/monitors",
    tag: "monitors",
    item: MonitorSchema,
    create: fastify.monitorBodies.create,
    documentedCreate: fastify.monitorBodies.documentedCreate,
    update: fastify.monitorBodies.update,
    query: ListMonitorsQuerySchema,
    params,
    service: monitors,
    itemRoutes: true,
    createErrors: [403],
  });

  for (const action of ["pause", "resume"] as const) {
    const status = action === "pause" ? "paused" : "active";
    app.post(
      `/api/v1/monitors/:id/${action}`,
      { schema: { tags, params, response: { 200: envelope(MonitorSchema), ...errorResponses("POST", { id: true }) } } },
      async (req) => ({ ok: true as const, data: monitors.setStatus(principalOf(req), req.params.id, status) }),
    );
  }

  app.get(
    "/api/v1/monitors/:id/heartbeats",
    {
      schema: {
        tags,
        params,
        querystring: HeartbeatsQuerySchema,
        response: { 200: envelope(z.array(HeartbeatSchema)), ...errorResponses("GET", { id: true, validated: true }) },
      },
    },
    async (req) => ({ ok: true as const, data: monitors.heartbeats(principalOf(req), req.params.id, req.query.hours) }),
  );

  app.get(
    "/api/v1/monitors/:id/stats",
    {
      schema: {
        tags,
        params,
        querystring: StatsQuerySchema,
        response: { 200: envelope(StatsSchema), ...errorResponses("GET", { id: true, validated: true }) },
      },
    },
    async (req) => ({ ok: true as const, data: monitors.stats(principalOf(req), req.params.id, req.query.days) }),
  );
}
