import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  validatorCompiler,
} from "fastify-type-provider-zod";
import { monitorBodySchemas } from "../api";
import { resolveOptions, type ServerOptionsInput } from "./config";
import { registerAuth } from "./http/auth";
import { BODY_LIMIT, clientErrorHandler, frameworkErrors, newRequestId, registerErrorHandling } from "./http/errors";
import { registerIdempotency } from "./http/idempotency";
import { loggerOptions, redactUrl } from "./http/logging";
import { requestLogger } from "./http/request-logger";
import { methodNotAllowed } from "./http/method-not-allowed";
import { withLinks } from "./http/openapi-links";
import { withOperations } from "./http/openapi-operations";
import { withNamedVariants } from "./http/openapi-variants";
import { documentRegistry } from "./http/openapi-registry";
import { registerRateLimit } from "./http/rate-limit";
import { serializerCompiler } from "./http/serializer";
import { closeConnectionsWhenDraining, registerConnectionLimits, serverTimeouts } from "./http/timeouts";
import "./http/types";
import { monitoringPlugin } from "./monitoring";
import { healthRoutes } from "./ops/health";
import { Metrics } from "./ops/metrics";
import { countRequests, metricsRoute } from "./ops/metrics-route";
import { KeptStatusAnswers } from "./routes/status-kept";
import { agentRoutes, locationRoutes } from "./routes/agents";
import { channelRoutes } from "./routes/channels";
import { maintenanceWindowRoutes } from "./routes/maintenance-windows";
import { monitorRoutes } from "./routes/monitors";
import { pushRoutes, pushTokenRoutes } from "./routes/push";
import { statusHtmlRoutes } from "./routes/status-html";
import { statusPageRoutes } from "./routes/status-pages";
import { statusIncidentRoutes } from "./routes/status-incidents";
import { statusPublicRoutes } from "./routes/status-public";
import { servicesPlugin } from "./services";
import { storePlugin } from "./store/plugin";

export const API_VERSION = "1.0.0";

const API_DESCRIPTION = [
  "Reference server of the uptime monitoring API. Extensions beyond the seed are marked in each operation's summary.",
  "",
  "`Idempotency-Key` (any POST, 1..255 visible ASCII characters): the same key with the same body within 24 hours " +
    "returns the first successful answer again, marked `Idempotent-Replayed: true`, while the object it created " +
    "exists; once that object is deleted the key no longer replays and the request creates a new object. The same " +
    "key with a different body is a 409 `conflict`, and so is a key whose first request is still running. Refused " +
    "requests (4xx) are not kept: a retry runs again.",
  "",
  "`external_id` (monitors, channels, status pages): a client's mark on an object, set at create, changed or " +
    "cleared (null) by PATCH, returned by reads; unique per account and kind (a second use is a 409 `conflict` " +
    "naming the holder), at most 255 characters without control characters.",
].join("\n");

/**
 * Builds the reference server without listening: tests call `listen({ port: 0 })` on it, the
 * CLI a real port. Plugins in dependency order: store → monitoring → services → routes.
 */
export async function buildApp(input: ServerOptionsInput = {}): Promise<FastifyInstance> {
  const settings = resolveOptions(input);
  const kept = new KeptStatusAnswers();
  const app = Fastify({
    serverFactory: kept.serverFactory,
    logger: loggerOptions(settings.logger),
    // Successful requests are logged at debug level only: one log line per request would cost
    // more than the request itself. Errors are logged by the error handler and the hook below.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLogger,
    trustProxy: settings.trustProxy,
    bodyLimit: BODY_LIMIT,
    // Ids up to this long reach authentication and then get a 404; longer ones a 404 at once.
    routerOptions: { maxParamLength: 512 },
    genReqId: newRequestId,
    frameworkErrors,
    clientErrorHandler,
    ...serverTimeouts(settings),
  });
  registerConnectionLimits(app, settings);
  app.decorate("settings", settings);
  app.decorate("draining", false);
  closeConnectionsWhenDraining(app);
  logResponses(app);
  await app.register(storePlugin);
  app.decorate("metrics", new Metrics(app.store));
  countRequests(app, app.metrics);
  await app.register(monitoringPlugin);
  await app.register(servicesPlugin);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerAuth(app);
  await registerRateLimit(app);
  registerIdempotency(app);
  app.decorate("monitorBodies", monitorBodySchemas(settings.minIntervalSec));
  const schemaRegistry = documentRegistry(app.monitorBodies);
  const transformObject = createJsonSchemaTransformObject({ schemaRegistry });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "pulumi-uptime monitoring API",
        version: API_VERSION,
        description: API_DESCRIPTION,
        license: { name: "Apache-2.0", identifier: "Apache-2.0" },
      },
      // Relative: the server that serves the document (a proxy in front keeps it right).
      servers: [{ url: "/", description: "The server that serves this document" }],
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key: uk_…" } },
      },
      security: [{ bearer: [] }],
    },
    transform: createJsonSchemaTransform({ schemaRegistry }),
    transformObject: (input) => withNamedVariants(withOperations(withLinks(transformObject(input)))),
  });

  const allow = methodNotAllowed(app);
  await app.register(monitorRoutes);
  await app.register(channelRoutes);
  await app.register(statusPageRoutes);
  if (settings.extensions) {
    await app.register(maintenanceWindowRoutes);
    await app.register(statusIncidentRoutes);
    await app.register(pushRoutes);
    await app.register(pushTokenRoutes);
    await app.register(locationRoutes);
    await app.register(agentRoutes);
    app.get("/api/v1/openapi.json", { schema: { hide: true } }, async (_req, reply) =>
      reply.type("application/json; charset=utf-8").send(JSON.stringify(app.swagger())),
    );
  }
  allow.seal();
  await app.register(statusHtmlRoutes); // HTML for people: after seal, so it stays out of the OpenAPI document
  await app.register(statusPublicRoutes);
  await app.register(healthRoutes);
  metricsRoute(app, app.metrics);
  kept.open(app);
  return app;
}

/**
 * One line per answered request: errors at info, successes at debug only, so that at the default
 * level a successful request writes nothing. The path is logged with its query string redacted.
 */
function logResponses(app: FastifyInstance): void {
  const enabled = (level: string) =>
    (app.log as unknown as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.(level) ?? false;
  const levels = { info: enabled("info"), debug: enabled("debug") };
  if (!levels.info && !levels.debug) return;
  app.addHook("onResponse", (request, reply, done) => {
    const level = reply.statusCode >= 400 ? "info" : "debug";
    if (levels[level]) {
      request.log[level](
        {
          method: request.method,
          path: redactUrl(request.url),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        "request completed",
      );
    }
    done();
  });
}
