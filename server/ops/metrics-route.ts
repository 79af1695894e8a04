import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import type { Metrics } from "./metrics";

const BEARER = /^Bearer ([^\s]+)$/;
const digest = (text: string) => createHash("sha256").update(text).digest();

/** Counts every answered request by method, route template (never the raw path) and status. */
export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? "unmatched";
    metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    done();
  });
}

/**
 * GET /metrics in Prometheus text format, for the holder of the metrics key only (its own key,
 * never an account's: account keys are refused like any other wrong key). Without a metrics key
 * configured, the route answers 404.
 */
export function metricsRoute(app: FastifyInstance, metrics: Metrics): void {
  const key = app.settings.metricsKey;
  const expected = key === undefined ? undefined : digest(key);
  app.get("/metrics", { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    if (!expected) throw new ApiError("not_found", "Metrics are off: start the server with --metrics-key-file");
    const sent = BEARER.exec(request.headers.authorization ?? "")?.[1];
    if (!sent || !timingSafeEqual(digest(sent), expected)) {
      throw new ApiError("unauthorized", "Send the metrics key as Authorization: Bearer <key>", undefined, {
        "www-authenticate": 'Bearer realm="metrics"',
      });
    }
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).header("cache-control", "no-store").send(text);
  });
}
