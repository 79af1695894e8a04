import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  envelope,
  LeaseRequestSchema,
  LeasesSchema,
  LocationSchema,
  ResultsRequestSchema,
  ResultsSchema,
} from "../../api";
import { principalOf } from "../http/types";
import { errorResponses } from "./responses";

/**
 * `GET /api/v1/locations` (extension): the account's checker locations, the built-in checker's
 * and its agents', with each agent's last contact.
 */
export async function locationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    "/api/v1/locations",
    {
      schema: {
        tags: ["locations"],
        summary: "Extension: list checker locations and their agents' last contact",
        response: { 200: envelope(z.array(LocationSchema)), ...errorResponses("GET") },
      },
    },
    async (req) => ({ ok: true as const, data: await fastify.locations.list(principalOf(req).accountId) }),
  );
}

/**
 * The agent API (extension; agent keys only, a management key gets 403): lease the checks due at
 * the key's location, post their results. Not rate-limited per key: an agent's polls and batches
 * grow with the location's work, and an agent key can do nothing else.
 */
export async function agentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ["agents"];
  // A lease or a result is never replayed: each lease request hands out new work, and results are
  // recorded once by their check key anyway.
  fastify.addHook("onRequest", async (req) => {
    delete req.headers["idempotency-key"];
  });
  app.post(
    "/api/v1/agent/leases",
    {
      config: { rateLimit: false },
      schema: {
        tags,
        summary: "Extension: lease the checks due at the agent key's location (waits up to wait_ms when none is due)",
        body: LeaseRequestSchema,
        response: { 200: envelope(LeasesSchema), ...errorResponses("POST") },
      },
    },
    async (req, reply) => {
      // The response closes before it is sent only when the agent hung up (or died).
      const hungUp = new AbortController();
      reply.raw.once("close", () => {
        if (!reply.raw.writableFinished) hungUp.abort();
      });
      const data = await fastify.leases.lease(
        principalOf(req),
        req.body.agent_id,
        req.body.max,
        req.body.wait_ms,
        hungUp.signal,
        req.body.allow_private_targets,
        req.body.browser,
      );
      return { ok: true as const, data };
    },
  );
  app.post(
    "/api/v1/agent/results",
    {
      config: { rateLimit: false },
      schema: {
        tags,
        summary:
          "Extension: post checks' results; each check is recorded once, a result for a deleted, paused or moved monitor refused",
        body: ResultsRequestSchema,
        response: { 200: envelope(ResultsSchema), ...errorResponses("POST") },
      },
    },
    async (req) => ({ ok: true as const, data: { results: await fastify.leases.results(principalOf(req), req.body) } }),
  );
}
