import type { FastifyInstance, HTTPMethods } from "fastify";
import { ApiError } from "../errors";

/**
 * Collects the routes as they are added; `seal()` then answers every other method on a known
 * path with 405 and an `Allow` header, instead of a misleading 404.
 */
export function methodNotAllowed(app: FastifyInstance): { seal: () => void } {
  const byPath = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = byPath.get(route.url) ?? new Set<string>();
    for (const m of methods) known.add(m);
    byPath.set(route.url, known);
  });
  return {
    seal: () => {
      for (const [url, known] of [...byPath]) {
        // Every method the router knows (TRACE and QUERY too); HEAD comes with each GET.
        const others = app.supportedMethods.filter(
          (m) => !known.has(m) && !(m === "HEAD" && known.has("GET")),
        ) as HTTPMethods[];
        if (others.length === 0) continue;
        const allow = [...known].sort().join(", ");
        app.route({
          method: others,
          url,
          // Not an operation of its own: every operation documents 405 among its responses.
          schema: { hide: true },
          // Refused on arrival, before any body is read or required (QUERY needs a Content-Type).
          onRequest: async () => {
            throw new ApiError("method_not_allowed", `Use one of: ${allow}`, undefined, { allow });
          },
          handler: async () => undefined,
        });
      }
    },
  };
}
