import type { IncomingHttpHeaders } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../errors";
import type { Principal } from "../store/keys";
import { AuthThrottle } from "./auth-throttle";
import { type FailureCounter, SharedAuthThrottle } from "./shared-counters";

/** Routes of checker agents: the only ones an agent key may call. */
export const AGENT_PREFIX = "/api/v1/agent/";

const BEARER = /^Bearer ([^\s]+)$/;
/** Query parameters that carry credentials in other APIs; ours never reads a key from the URL. */
const KEY_PARAMS = new Set(["api_key", "apikey", "api-key", "key", "token", "access_token", "auth"]);
const CHALLENGE = { "www-authenticate": 'Bearer realm="uptime"' };

/** Whether a URL carries something that looks like a credential in its query string. */
export function queryCarriesKey(url: string): boolean {
  const at = url.indexOf("?");
  if (at < 0) return false;
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) {
    if (KEY_PARAMS.has(name.toLowerCase()) || value.startsWith("uk_") || name.startsWith("uk_")) return true;
  }
  return false;
}

/** The agent API, and nothing else, is an agent key's; a management key may not act as an agent. */
function checkScope(url: string, principal: Principal): void {
  const agentRoute = url.startsWith(AGENT_PREFIX);
  if (principal.scope === "agent" && !agentRoute) {
    throw new ApiError(
      "forbidden",
      `This is an agent key (location ${principal.location}): it may only use the agent API (${AGENT_PREFIX}…)`,
    );
  }
  if (principal.scope !== "agent" && agentRoute) {
    throw new ApiError(
      "forbidden",
      "The agent API takes an agent key (uptime-server keys create --scope agent --location NAME)",
    );
  }
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers["transfer-encoding"] !== undefined || Number(headers["content-length"] ?? 0) > 0;
}

/**
 * Every /api/v1 request needs `Authorization: Bearer <key>`; missing, malformed, unknown and
 * revoked keys are all the same 401 (the answer never says which, nor echoes the key). A key in
 * the query string is refused on every route (URLs end up in logs and proxies). Past
 * `authFailureLimit` failures per window, an address gets 429 `rate_limited` with `Retry-After`
 * instead of 401 until the window ends; requests with a valid key are never throttled.
 */
export function registerAuth(app: FastifyInstance): void {
  const { authFailureLimit, rateLimitWindowMs } = app.settings;
  // Replicas on one PostgreSQL database count an address's failures together; one process in memory.
  const throttle: FailureCounter =
    app.store.db.engine === "postgres"
      ? new SharedAuthThrottle(app.store.rateCounters, authFailureLimit, rateLimitWindowMs)
      : new AuthThrottle(authFailureLimit, rateLimitWindowMs);
  /** Sets `request.principal`, or throws the 401 (or 429) the request gets. */
  const authenticate = async (request: FastifyRequest): Promise<void> => {
    const match = BEARER.exec(request.headers.authorization ?? "");
    const principal = match?.[1] ? await app.store.keys.authenticate(match[1]) : undefined;
    if (principal) {
      checkScope(request.url, principal);
      request.principal = principal;
      return;
    }
    // A refused request's body is never read: close the connection rather than wait for it.
    const close: Record<string, string> = hasBody(request.headers) ? { connection: "close" } : {};
    const wait = await throttle.fail(request.ip);
    if (wait !== undefined) {
      throw new ApiError(
        "rate_limited",
        `Too many failed authentications from this address; retry in ${wait} s`,
        undefined,
        {
          "retry-after": String(wait),
          ...close,
        },
      );
    }
    throw new ApiError("unauthorized", "Send a valid API key as Authorization: Bearer <key>", undefined, {
      ...CHALLENGE,
      ...close,
    });
  };
  // A callback hook, not an async one: the public pages, the busiest routes, need no key and
  // should not pay for a promise per request.
  app.addHook("onRequest", (request, _reply, done) => {
    if (queryCarriesKey(request.url)) {
      done(
        new ApiError(
          "unauthorized",
          "API keys are never accepted in the URL; send Authorization: Bearer <key> and rotate the key you sent",
          undefined,
          CHALLENGE,
        ),
      );
      return;
    }
    if (!request.url.startsWith("/api/v1/") || request.url.startsWith("/api/v1/openapi.json")) return done();
    authenticate(request).then(() => done(), done);
  });
}
