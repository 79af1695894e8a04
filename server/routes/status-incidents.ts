import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  ComponentParamsSchema,
  ComponentPatchSchema,
  ComponentViewSchema,
  CreateIncidentSchema,
  envelope,
  ID_PREFIX,
  idParams,
  IncidentListQuerySchema,
  IncidentParamsSchema,
  IncidentSchema,
  IncidentUpdateBodySchema,
  PatchIncidentSchema,
} from "../../api";
import { principalOf } from "../http/types";
import { errorResponses } from "./responses";

/** Incidents of a status page (open, update, resolve, list) and its components' states (extensions). */
export async function statusIncidentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const incidents = fastify.services.statusIncidents;
  const tags = ["status pages"];
  const base = "/api/v1/status-pages/:id";
  const one = envelope(IncidentSchema);

  app.get(
    `${base}/incidents`,
    {
      schema: {
        tags,
        params: idParams(ID_PREFIX.statusPage),
        querystring: IncidentListQuerySchema,
        response: { 200: envelope(z.array(IncidentSchema)), ...errorResponses("GET", { id: true, validated: true }) },
      },
    },
    async (req) => ({
      ok: true as const,
      data: await incidents.list(principalOf(req), req.params.id, req.query.state ?? "all"),
    }),
  );
  app.post(
    `${base}/incidents`,
    {
      schema: {
        tags,
        params: idParams(ID_PREFIX.statusPage),
        body: CreateIncidentSchema,
        response: { 201: one, ...errorResponses("POST", { id: true, validated: true }) },
      },
    },
    async (req, reply) => {
      const data = await incidents.open(principalOf(req), req.params.id, req.body);
      reply.code(201);
      return { ok: true as const, data };
    },
  );
  app.get(
    `${base}/incidents/:incident`,
    { schema: { tags, params: IncidentParamsSchema, response: { 200: one, ...errorResponses("GET", { id: true }) } } },
    async (req) => ({
      ok: true as const,
      data: await incidents.get(principalOf(req), req.params.id, req.params.incident),
    }),
  );
  app.patch(
    `${base}/incidents/:incident`,
    {
      schema: {
        tags,
        params: IncidentParamsSchema,
        body: PatchIncidentSchema,
        response: { 200: one, ...errorResponses("PATCH", { id: true, validated: true }) },
      },
    },
    async (req) => ({
      ok: true as const,
      data: await incidents.patch(principalOf(req), req.params.id, req.params.incident, req.body),
    }),
  );
  app.post(
    `${base}/incidents/:incident/updates`,
    {
      schema: {
        tags,
        params: IncidentParamsSchema,
        body: IncidentUpdateBodySchema,
        response: { 201: one, ...errorResponses("POST", { id: true, validated: true }) },
      },
    },
    async (req, reply) => {
      const data = await incidents.update(principalOf(req), req.params.id, req.params.incident, req.body);
      reply.code(201);
      return { ok: true as const, data };
    },
  );

  const component = envelope(ComponentViewSchema);
  app.get(
    `${base}/components/:key`,
    {
      schema: {
        tags,
        params: ComponentParamsSchema,
        response: { 200: component, ...errorResponses("GET", { id: true }) },
      },
    },
    async (req) => ({
      ok: true as const,
      data: await incidents.component(principalOf(req), req.params.id, req.params.key),
    }),
  );
  for (const method of ["PATCH", "PUT"] as const) {
    app.route({
      method,
      url: `${base}/components/:key`,
      schema: {
        tags,
        params: ComponentParamsSchema,
        body: ComponentPatchSchema,
        response: { 200: component, ...errorResponses("PATCH", { id: true, validated: true }) },
      },
      handler: async (req) => ({
        ok: true as const,
        data: await incidents.patchComponent(principalOf(req), req.params.id, req.params.key, req.body),
      }),
    });
  }
}
