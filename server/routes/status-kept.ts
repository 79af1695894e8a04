import proxyAddr from "@fastify/proxy-addr";
import type { FastifyInstance, FastifyRequest, FastifyServerFactory } from "fastify";
import {
  createServer,
  type IncomingMessage,
  type ServerOptions as HttpServerOptions,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from "node:http";
import { newRequestId } from "../http/errors";
import { notModified } from "./conditional";
import { HTML_HEADERS, revalidated } from "./status-resolve";

/** `/api/status/<slug>.json` and `/status/<slug>`, with no query: the answers a crowd asks for. */
const JSON_PATH = /^\/api\/status\/([a-z0-9-]{3,64})\.json$/;
const HTML_PATH = /^\/status\/([a-z0-9-]{3,64})$/;

/** The route templates the same requests have in Fastify (the metrics' `route` label). */
const ROUTE = { json: "/api/status/:file", html: "/status/:slug" } as const;

type Kind = keyof typeof ROUTE;
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Limit = ReturnType<FastifyInstance["createRateLimit"]>;

const trustAll = () => true;

/** What of Fastify's options its own server factory applies (fastify/lib/server.js). */
interface FactoryOptions {
  http?: HttpServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * The public status page and its JSON document, sent from their kept bytes before Fastify's
 * lifecycle (routing, the request and reply objects, the hooks): when a monitor goes down,
 * everyone opens its status page at once, and that is the moment it must stay fast. Nothing is
 * skipped that the answer needs: the per-address rate limit (the plugin's own counter, through
 * `createRateLimit`), conditional requests, a request id, the metrics, the same headers.
 *
 * A request takes this lane only when all of that is known: a GET of exactly one of the two
 * paths, without credentials, while the server is not draining, for a public page whose answer is
 * kept and under its address's limit. Anything else (a private page, an answer to compute, a
 * request over its limit, a custom domain, debug logging) goes to Fastify as before, which answers
 * it in full.
 */
export class KeptStatusAnswers {
  private app: FastifyInstance | undefined;
  private limit: Limit | undefined;
  private ipOf: (req: IncomingMessage) => string = (req) => req.socket.remoteAddress ?? "";

  /**
   * Fastify's `serverFactory`: the HTTP server Fastify would make, with the same options and
   * timeouts (http/timeouts.ts), whose requests try this lane first.
   */
  readonly serverFactory: FastifyServerFactory = (handler, fastifyOptions) => {
    const options = fastifyOptions as FactoryOptions;
    const server = createServer(options.http ?? {}, (req, res) => this.route(req, res, handler as Handler));
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  /** Opens the lane once the app's routes, rate limit and services are in place. */
  open(app: FastifyInstance): void {
    // A successful request logs a line at debug level: with it on, every request goes through Fastify.
    if ((app.log as unknown as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.("debug") === true) return;
    this.app = app;
    this.limit = app.createRateLimit();
    if (app.settings.trustProxy) {
      this.ipOf = (req) => {
        const addresses = proxyAddr.all(req, trustAll);
        return addresses[addresses.length - 1] ?? "";
      };
    }
  }

  private route(req: IncomingMessage, res: ServerResponse, fastify: Handler): void {
    const app = this.app;
    const url = req.url ?? "";
    if (!app || req.method !== "GET" || app.draining || req.headers.authorization !== undefined)
      return fastify(req, res);
    const json = JSON_PATH.exec(url);
    const match = json ?? HTML_PATH.exec(url);
    if (!match) return fastify(req, res);
    this.serve(app, req, res, json ? "json" : "html", match[1] as string).then(
      (sent) => {
        if (!sent) fastify(req, res);
      },
      (err: unknown) => {
        app.log.error({ err }, "kept status answer failed");
        if (res.headersSent) res.destroy();
        else fastify(req, res);
      },
    );
  }

  /** Sends the kept answer; false (nothing sent) when Fastify must answer. */
  private async serve(
    app: FastifyInstance,
    req: IncomingMessage,
    res: ServerResponse,
    kind: Kind,
    slug: string,
  ): Promise<boolean> {
    const base = `/status/${slug}`;
    const kept = await app.services.statusPages.keptAnswer(slug, kind === "html" ? base : undefined);
    if (!kept) return false;
    const cacheControl = revalidated({ page: kept.page, base });
    if (cacheControl !== "public, no-cache") return false;
    // Counted by the same limiter, under the same key, as Fastify's hook counts a public request.
    const request = { ip: this.ipOf(req), principal: undefined, routeOptions: { config: {} } };
    const limit = await (this.limit as Limit)(request as unknown as FastifyRequest);
    if (limit.isAllowed || limit.isExceeded) return false;
    const headers: OutgoingHttpHeaders = {
      "x-request-id": newRequestId(),
      "x-ratelimit-limit": limit.max,
      "x-ratelimit-remaining": limit.remaining,
      "x-ratelimit-reset": limit.ttlInSeconds,
      ...(kind === "html" ? HTML_HEADERS : { "content-type": "application/json; charset=utf-8" }),
      etag: kept.answer.etag,
      "last-modified": kept.answer.lastModified,
      "cache-control": cacheControl,
    };
    const status = notModified(req.headers, kept.answer) ? 304 : 200;
    if (status === 304) res.writeHead(304, headers).end();
    else res.writeHead(200, { ...headers, "content-length": kept.answer.body.length }).end(kept.answer.body);
    app.metrics.httpRequests.inc({ method: "GET", route: ROUTE[kind], status: String(status) });
    app.metrics.keptStatusAnswers.inc({ route: ROUTE[kind] });
    return true;
  }
}
