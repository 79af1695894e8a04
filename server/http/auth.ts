import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";

const BEARER = /^Bearer ([^\s]+)$/;

/**
 * Every /api/v1 request needs `Authorization: Bearer <key>`; missing, malformed, unknown and
 * revoked keys are all the same 401 (the answer never says which, nor echoes the key).
 */
export function registerAuth(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/v1/") || request.url.startsWith("/api/v1/openapi.json")) return;
    const match = BEARER.exec(request.headers.authorization ?? "");
    const principal = match?.[1] ? app.store.keys.authenticate(match[1]) : undefined;
    if (!principal) {
      throw new ApiError("unauthorized", "Send a valid API key as Authorization: Bearer <key>", undefined, {
        "www-authenticate": 'Bearer realm="uptime"',
      });
    }
    request.principal = principal;
  });
}
