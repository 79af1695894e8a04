import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type DryRunQuery,
  DryRunQuerySchema,
  envelope,
  HeartbeatSchema,
  HeartbeatsQuerySchema,
  ID_PREFIX,
  idParams,
  ListQuerySchema,
  MonitorSchema,
  MONITOR_STATUSES,
  MonitorTestResultSchema,
  StatsQuerySchema,
  StatsSchema,
  TAG_MAX,
  DocumentedTriggerRequestSchema,
  TriggerRequestSchema,
  type TriggerRequest,
  TriggerResultSchema,
} from "../../api";
import { principalOf } from "../http/types";
import { crudRoutes, validateBodyWith } from "./crud";
import { errorResponses } from "./responses";
import { screenshotRoutes } from "./screenshots";

const ListMonitorsQuerySchema = ListQuerySchema.extend({
  tag: z.string().max(TAG_MAX).optional(),
  status: z.enum(MONITOR_STATUSES).optional(),
});

const params = idParams(ID_PREFIX.monitor);

/** /api/v1/monitors: CRUD, pause/resume, heartbeats and stats. */
export async function monitorRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const monitors = fastify.services.monitors;
  // Answers show secret fields as fingerprints; the checks behind dry runs and triggers hold the values.
  const reads = fastify.services.monitorReads;
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
    service: reads,
    itemRoutes: true,
    createErrors: [403],
  });

  for (const action of ["pause", "resume"] as const) {
    const status = action === "pause" ? "paused" : "active";
    app.post(
      `/api/v1/monitors/:id/${action}`,
      { schema: { tags, params, response: { 200: envelope(MonitorSchema), ...errorResponses("POST", { id: true }) } } },
      async (req) => ({ ok: true as const, data: await reads.setStatus(principalOf(req), req.params.id, status) }),
    );
  }

  await screenshotRoutes(fastify);
  if (fastify.settings.extensions) {
    dryRunRoutes(fastify);
    triggerRoute(fastify);
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
    async (req) => ({
      ok: true as const,
      data: await monitors.heartbeats(principalOf(req), req.params.id, req.query.hours),
    }),
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
    async (req) => ({ ok: true as const, data: await monitors.stats(principalOf(req), req.params.id, req.query.days) }),
  );
}

/**
 * The dry run (extension): `POST /api/v1/monitors/test` with a create's body, and
 * `POST /api/v1/monitors/{id}/test` for a stored monitor. One check now, recorded nowhere;
 * `?location=NAME` runs it at that location (an agent's, through the agent API).
 */
function dryRunRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const dryRuns = fastify.services.dryRuns;
  const tags = ["monitors"];
  const answer = { 200: envelope(MonitorTestResultSchema) };
  app.post(
    "/api/v1/monitors/test",
    {
      schema: {
        tags,
        summary: "Dry run of a monitor spec (extension): one check now, nothing stored",
        // Documented as a create's body is, and validated as a create is (the same 422s).
        body: fastify.monitorBodies.documentedCreate,
        querystring: DryRunQuerySchema,
        response: { ...answer, ...errorResponses("POST", { validated: true }) },
      },
      validatorCompiler: validateBodyWith(fastify.monitorBodies.create) as never,
    },
    async (req) => ({
      ok: true as const,
      data: await dryRuns.ofSpec(principalOf(req), req.body as never, (req.query as DryRunQuery).location),
    }),
  );
  app.post(
    "/api/v1/monitors/:id/test",
    {
      schema: {
        tags,
        summary: "Dry run of a stored monitor (extension): one check now, nothing stored",
        params,
        querystring: DryRunQuerySchema,
        response: { ...answer, ...errorResponses("POST", { id: true, validated: true }) },
      },
    },
    async (req) => ({
      ok: true as const,
      data: await dryRuns.ofMonitor(principalOf(req), req.params.id, req.query.location),
    }),
  );
}

/**
 * The trigger (extension): `POST /api/v1/monitors/trigger` runs the monitors a list of ids or a
 * tag selects, now, at their locations (or `location`), and answers when every check ended;
 * `record: true` stores each as a heartbeat (health and alerts follow), otherwise nothing is stored.
 */
function triggerRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const triggers = fastify.services.triggers;
  app.post(
    "/api/v1/monitors/trigger",
    {
      schema: {
        tags: ["monitors"],
        summary:
          "Runs deployed monitors now (extension): by ids or tag, at their locations or one; stored only with record",
        body: DocumentedTriggerRequestSchema,
        response: {
          200: envelope(TriggerResultSchema),
          ...errorResponses("POST", { validated: true, extra: [404, 409] }),
        },
      },
      // Documented as either form, validated with the refinement's messages.
      validatorCompiler: validateBodyWith(TriggerRequestSchema) as never,
    },
    async (req) => ({ ok: true as const, data: await triggers.run(principalOf(req), req.body as TriggerRequest) }),
  );
}
