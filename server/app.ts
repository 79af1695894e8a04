import { randomBytes } from "node:crypto";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance } from "fastify";
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from "fastify-type-provider-zod";
import { resolveOptions, type ServerOptionsInput } from "./config";
import { registerAuth } from "./http/auth";
import { registerErrorHandling } from "./http/errors";
import { registerIdempotency } from "./http/idempotency";
import { methodNotAllowed } from "./http/method-not-allowed";
import { registerRateLimit } from "./http/rate-limit";
import "./http/types";
import { createTransport } from "nodemailer";
import { interceptors } from "undici";
import { Checker } from "./checker/checker";
import type { SendMail } from "./notify/deliver";
import { Notifier } from "./notify/notifier";
import { outboundAgent } from "./outbound";
import { channelRoutes } from "./routes/channels";
import { maintenanceWindowRoutes } from "./routes/maintenance-windows";
import { monitorRoutes } from "./routes/monitors";
import { pushRoutes, pushTokenRoutes } from "./routes/push";
import { statusPageRoutes } from "./routes/status-pages";
import { Store } from "./store";

export const API_VERSION = "1.0.0";

/**
 * Builds the reference server without listening: tests call `listen({ port: 0 })` on it, the
 * CLI a real port. The store is opened here and closed with the app.
 */
export async function buildApp(input: ServerOptionsInput = {}): Promise<FastifyInstance> {
  const settings = resolveOptions(input);
  const app = Fastify({
    logger: settings.logger === true ? { level: "info" } : settings.logger,
    trustProxy: settings.trustProxy,
    bodyLimit: 64 * 1024,
    genReqId: () => `req_${randomBytes(8).toString("hex")}`,
  });
  const store = Store.open(settings.db);
  if (settings.devKey && !store.keys.authenticate(settings.devKey))
    store.keys.create("dev", "dev key", settings.devKey);
  const outbound = outboundAgent(settings.allowPrivateTargets);
  const following = outbound.compose(interceptors.redirect({ maxRedirections: 5 }));
  const sendMail = mailer(settings.smtpUrl, settings.smtpFrom);
  const notifier = new Notifier(
    { store, dispatcher: outbound, allowPrivate: settings.allowPrivateTargets, sendMail },
    app.log,
    settings.notifyRetryDelaysMs,
  );
  const checker = new Checker(
    store,
    { follow: following, direct: outbound, allowPrivate: settings.allowPrivateTargets },
    notifier,
    app.log,
    settings.checkConcurrency,
  );
  app.decorate("store", store);
  app.decorate("settings", settings);
  app.decorate("checker", checker);
  app.decorate("notifier", notifier);
  const prune = setInterval(() => {
    store.heartbeats.prune();
    store.idempotency.prune();
  }, 3_600_000).unref();
  app.addHook("onReady", async () => {
    store.heartbeats.prune();
    if (settings.checker) await checker.start();
  });
  app.addHook("onClose", async () => {
    clearInterval(prune);
    notifier.close();
    await checker.stop();
    await outbound.close();
    store.close();
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerAuth(app);
  await registerRateLimit(app);
  registerIdempotency(app);
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "pulumi-uptime monitoring API",
        version: API_VERSION,
        description:
          "Reference server of the uptime monitoring API. Extensions beyond the seed are marked in each operation's summary.",
      },
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key: uk_…" } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  const allow = methodNotAllowed(app);
  await app.register(monitorRoutes);
  await app.register(channelRoutes);
  await app.register(statusPageRoutes);
  if (settings.extensions) {
    await app.register(maintenanceWindowRoutes);
    await app.register(pushRoutes);
    await app.register(pushTokenRoutes);
  }
  if (settings.extensions) app.get("/api/v1/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  allow.seal();
  return app;
}

function mailer(url: string | undefined, from: string): SendMail | undefined {
  if (!url) return undefined;
  const transport = createTransport(url);
  return (message) => transport.sendMail({ from, ...message });
}
