import type { ServerOptions } from "../config";
import type { Services } from "../services";
import type { Store } from "../store";
import type { Principal } from "../store/keys";

declare module "fastify" {
  interface FastifyInstance {
    /** The repositories: for services and HTTP hooks, never for route handlers. */
    store: Store;
    settings: ServerOptions;
    /** Probes active monitors; call `refresh(id)` after changing one. */
    checker: import("../checker/checker").Checker;
    notifier: import("../notify/notifier").Notifier;
    /** The checker locations of each account, and which are live. */
    locations: import("../agents/locations").Locations;
    /** The agent locations' schedule: leases and results. */
    leases: import("../agents/leases").LeaseService;
    /** What route handlers call: routes → services → store. */
    services: Services;
    /** The Prometheus metrics served at /metrics. */
    metrics: import("../ops/metrics").Metrics;
    /** The monitor bodies under this server's interval floor (see http/openapi-registry.ts). */
    monitorBodies: import("./openapi-registry").MonitorBodies;
    /** Set once a shutdown began: /readyz answers 503. */
    draining: boolean;
  }
  interface FastifyRequest {
    /** The account of the request's API key (set by the auth hook on /api/v1). */
    principal?: Principal;
  }
}

/** The principal of an authenticated request; the auth hook guarantees one on /api/v1. */
export function principalOf(request: { principal?: Principal }): Principal {
  if (!request.principal) throw new Error("route under /api/v1 reached without authentication");
  return request.principal;
}
