import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  CreateMonitorSchema,
  envelope,
  HeartbeatSchema,
  HeartbeatsQuerySchema,
  IdParamsSchema,
  ListQuerySchema,
  listEnvelope,
  MonitorSchema,
  StatsQuerySchema,
  StatsSchema,
  UpdateMonitorSchema,
} from "../../api";
import { notFound } from "../errors";
import { principalOf } from "../http/types";
import { createMonitor, getMonitor, updateMonitor } from "../services/monitors";

const ListMonitorsQuerySchema = ListQuerySchema.extend({
  tag: z.string().max(50).optional(),
  status: z.enum(["active", "paused"]).optional(),
});

const one = { 200: envelope(MonitorSchema) };

/** /api/v1/monitors: CRUD, pause/resume, heartbeats and stats. */
export async function monitorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store, settings: options } = fastify;
  const changed = <T extends { id: string }>(monitor: T): T => {
    fastify.checker.refresh(monitor.id);
    return monitor;
  };
  const tags = ["monitors"];

  app.get(
    "/api/v1/monitors",
    {
      schema: { tags, querystring: ListMonitorsQuerySchema, response: { 200: listEnvelope(MonitorSchema) } },
    },
    async (req) => {
      const page = store.monitors.list(principalOf(req).accountId, req.query);
      return { ok: true as const, data: page.items, next_cursor: page.nextCursor };
    },
  );

  app.post(
    "/api/v1/monitors",
    { schema: { tags, body: CreateMonitorSchema, response: { 201: envelope(MonitorSchema) } } },
    async (req, reply) => {
      const monitor = changed(createMonitor(store, options, principalOf(req), req.body));
      return reply.code(201).send({ ok: true as const, data: monitor });
    },
  );

  app.get(
    "/api/v1/monitors/:id",
    { schema: { tags, params: IdParamsSchema, response: one } },
    async (req) => ({
      ok: true as const,
      data: getMonitor(store, principalOf(req), req.params.id),
    }),
  );

  app.patch(
    "/api/v1/monitors/:id",
    { schema: { tags, params: IdParamsSchema, body: UpdateMonitorSchema, response: one } },
    async (req) => ({
      ok: true as const,
      data: changed(updateMonitor(store, options, principalOf(req), req.params.id, req.body)),
    }),
  );

  app.delete(
    "/api/v1/monitors/:id",
    { schema: { tags, params: IdParamsSchema, response: one } },
    async (req) => {
      const monitor = store.monitors.delete(principalOf(req).accountId, req.params.id);
      if (!monitor) throw notFound("monitor", req.params.id);
      return { ok: true as const, data: changed(monitor) };
    },
  );

  for (const action of ["pause", "resume"] as const) {
    app.post(
      `/api/v1/monitors/:id/${action}`,
      { schema: { tags, params: IdParamsSchema, response: one } },
      async (req) => {
        const status = action === "pause" ? "paused" : "active";
        const monitor = store.monitors.setStatus(principalOf(req).accountId, req.params.id, status);
        if (!monitor) throw notFound("monitor", req.params.id);
        return { ok: true as const, data: changed(monitor) };
      },
    );
  }

  app.get(
    "/api/v1/monitors/:id/heartbeats",
    {
      schema: {
        tags,
        params: IdParamsSchema,
        querystring: HeartbeatsQuerySchema,
        response: { 200: envelope(z.array(HeartbeatSchema)) },
      },
    },
    async (req) => {
      const monitor = getMonitor(store, principalOf(req), req.params.id);
      return { ok: true as const, data: store.heartbeats.recent(monitor.id, req.query.hours) };
    },
  );

  app.get(
    "/api/v1/monitors/:id/stats",
    {
      schema: {
        tags,
        params: IdParamsSchema,
        querystring: StatsQuerySchema,
        response: { 200: envelope(StatsSchema) },
      },
    },
    async (req) => {
      const monitor = getMonitor(store, principalOf(req), req.params.id);
      return { ok: true as const, data: store.heartbeats.stats(monitor.id, req.query.days) };
    },
  );
}
