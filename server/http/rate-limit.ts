import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import { sharedRateLimitStore } from "./shared-counters";

/**
 * 600 requests per window per API key (configurable), and a per-address limit on the public
 * routes, counted across the replicas of one PostgreSQL database. Runs after authentication, so
 * the key is known; headers follow the API contract.
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  const { rateLimit: perKey, publicRateLimit, rateLimitWindowMs } = app.settings;
  await app.register(rateLimit, {
    global: true,
    hook: "preParsing",
    timeWindow: rateLimitWindowMs,
    // Replicas on one PostgreSQL database share each key's count; one process counts in memory.
    ...(app.store.db.engine === "postgres"
      ? { store: sharedRateLimitStore(app.store.rateCounters, rateLimitWindowMs) }
      : {}),
    max: (request) => (request.principal ? perKey : publicRateLimit),
    keyGenerator: (request) => (request.principal ? `key:${request.principal.keyId}` : `ip:${request.ip}`),
    addHeaders: {
      "x-ratelimit-limit": true,
      "x-ratelimit-remaining": true,
      "x-ratelimit-reset": true,
      "retry-after": true,
    },
    addHeadersOnExceeding: {
      "x-ratelimit-limit": true,
      "x-ratelimit-remaining": true,
      "x-ratelimit-reset": true,
    },
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        "rate_limited",
        `Rate limit of ${context.max} requests per ${Math.round(rateLimitWindowMs / 1000)} s exceeded; retry in ${context.after}`,
      ),
  });
}
