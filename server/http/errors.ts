import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { type ErrorDetail, issuesToDetails } from "../../api";
import { ApiError, errorBody, validationFailed } from "../errors";

const BODY_LIMIT = 64 * 1024;

/**
 * JSON only (64 KiB), an `X-Request-Id` on every response, and one error handler that renders
 * every failure in the API's envelope and hides the internals of 5xx.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit: BODY_LIMIT },
    (_req, body, done) => {
      if (body === "") return done(null, undefined);
      try {
        done(null, JSON.parse(body as string));
      } catch (err) {
        done(new ApiError("malformed_json", `Body is not valid JSON: ${(err as Error).message}`), undefined);
      }
    },
  );

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  app.setNotFoundHandler((request, reply) => {
    const err = new ApiError("not_found", `No route ${request.method} ${request.url.split("?")[0]}`);
    reply.code(err.statusCode).send(errorBody(err, request.id));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const err = toApiError(error);
    if (err.statusCode >= 500) request.log.error({ err: error }, "request failed");
    for (const [name, value] of Object.entries(err.headers ?? {})) reply.header(name, value);
    reply.code(err.statusCode).send(errorBody(err, request.id));
  });
}

function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext === "body" ? undefined : error.validationContext;
    const details: ErrorDetail[] = issuesToDetails(
      error.validation.map((v) => ({
        ...(v.params as object),
        code: v.keyword,
        message: v.message,
        path: v.instancePath
          .split("/")
          .filter(Boolean)
          .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      })) as never,
      // PATCH bodies have no `type`: say why rather than "unknown field".
      ["type"],
    ).map((d) => (where && d.field === "body" ? { ...d, field: where } : d));
    return validationFailed(details);
  }
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_TYPE":
      return new ApiError(
        "unsupported_media_type",
        "Send the body as JSON with Content-Type: application/json",
      );
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("payload_too_large", `Body is larger than ${BODY_LIMIT} bytes`);
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError("malformed_json", "Content-Length does not match the body");
  }
  if (error.statusCode === 429) return new ApiError("rate_limited", error.message);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError("malformed_json", error.message);
  }
  return new ApiError(
    "internal_error",
    "Internal server error; the request id identifies it in the server's log",
  );
}
