import type { FastifyRequest, FastifyServerOptions } from "fastify";

/** A URL fit for a log: the query string (which may carry tokens) and key-like segments redacted. */
export function redactUrl(url: string): string {
  const at = url.indexOf("?");
  const path = (at < 0 ? url : url.slice(0, at)).replace(/uk_[^/]*/g, "uk_[redacted]");
  return at < 0 ? path : `${path}?[redacted]`;
}

type LoggerSetting = boolean | { level?: string; [option: string]: unknown };

/**
 * Pino options of the server: the request serializer logs method, redacted URL and client
 * address only (never headers, so never the Authorization header).
 */
export function loggerOptions(setting: LoggerSetting): FastifyServerOptions["logger"] {
  if (setting === false) return false;
  const base = setting === true ? { level: "info" } : setting;
  return {
    ...base,
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url ?? ""), remoteAddress: req.ip }),
    },
  };
}
