import type { FastifyInstance } from "fastify";

const NO_STORE = { "cache-control": "no-store" };

/**
 * GET /healthz (the process is alive and its event loop answers) and GET /readyz (it can take
 * writes: the database is open, writable, and every migration is applied; not while shutting
 * down). Both without a key, never rate limited, and out of the OpenAPI document: they are for
 * load balancers and systemd, not part of the monitoring API.
 */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const options = { schema: { hide: true }, config: { rateLimit: false } };
  app.get("/healthz", options, async (_req, reply) => reply.headers(NO_STORE).send({ status: "ok" }));
  app.get("/readyz", options, async (_req, reply) => {
    const problems = app.draining ? ["shutting down"] : await app.store.readiness();
    if (problems.length === 0) return reply.headers(NO_STORE).send({ status: "ready" });
    return reply.code(503).headers(NO_STORE).send({ status: "not_ready", problems });
  });
}
