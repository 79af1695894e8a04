import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { envelope, ID_PREFIX, idParams } from "../../api";
import { BODY_LIMIT } from "../http/errors";
import { principalOf } from "../http/types";
import { errorResponses } from "./responses";

/** Pings per push token per rate-limit window: a job that loops by mistake cannot flood the store. */
export const PUSH_RATE_LIMIT = 60;

/** The answer of `POST /api/v1/monitors/<id>/push-token`. */
export const PushTokenSchema = z.object({
  /** The monitor's secret ping URL; shown once (only a digest is kept). */
  push_url: z.string(),
});

/**
 * `POST /api/v1/monitors/<id>/push-token` (extension): issues a new push URL for a heartbeat
 * monitor, which replaces the previous one. The URL is in this answer only: the server keeps a
 * digest, so neither its database nor a later read can give it away.
 */
export async function pushTokenRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Never replayed: a stored answer would keep the push URL in the database. Each call issues a
  // new URL anyway, so a retry is as good as a replay.
  fastify.addHook("onRequest", async (req) => {
    delete req.headers["idempotency-key"];
  });
  app.post(
    "/api/v1/monitors/:id/push-token",
    {
      schema: {
        tags: ["monitors"],
        summary: "Extension: issue the push URL of a heartbeat monitor",
        params: idParams(ID_PREFIX.monitor),
        response: { 200: envelope(PushTokenSchema), ...errorResponses("POST", { id: true }) },
      },
    },
    async (req) => {
      const token = await fastify.services.push.issueToken(principalOf(req), req.params.id);
      return { ok: true as const, data: { push_url: `${req.protocol}://${req.host}/api/push/${token}` } };
    },
  );
}

/**
 * `GET|POST /api/push/<token>` (extension): a heartbeat monitor's ping. No API key: the secret
 * token is the credential. Any body is accepted and ignored, so `curl -fsS -X POST -d …` works.
 */
export async function pushRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { push } = fastify.services;
  // This plugin's scope only: a ping's body may be anything and is not read.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: BODY_LIMIT }, (_req, _body, done) =>
    done(null, undefined),
  );
  app.route({
    method: ["GET", "POST"],
    url: "/api/push/:token",
    config: {
      rateLimit: {
        max: PUSH_RATE_LIMIT,
        keyGenerator: (req: { params: unknown }) => `push:${(req.params as { token?: string }).token ?? ""}`,
      },
    },
    schema: {
      tags: ["public"],
      summary: "Extension: ping of a heartbeat monitor (no key; the token is secret)",
      params: z.object({ token: z.string().max(200) }),
      security: [],
      response: { 200: envelope(z.object({ received_at: z.string() })), ...errorResponses("POST", { public: true }) },
    },
    handler: async (req) => ({ ok: true as const, data: { received_at: await push.ping(req.params.token) } }),
  });
}
