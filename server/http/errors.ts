import { randomFillSync } from "node:crypto";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ERROR_STATUS, type ErrorCode, type ErrorDetail, issuesToDetails } from "../../api";
import { ApiError, errorBody, validationFailed } from "../errors";

/** Largest request body accepted (64 KiB); more is a 413. */
export const BODY_LIMIT = 64 * 1024;

const ID_BYTES = 8;
const pool = Buffer.alloc(ID_BYTES * 1024);
let offset = pool.length;

/**
 * A new request id: `req_` and 16 random hex digits, sent as `X-Request-Id` and in every error.
 * Random bytes are drawn 8 KiB at a time: one call to the system per thousand requests.
 */
export function newRequestId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += ID_BYTES;
  return `req_${pool.toString("hex", offset - ID_BYTES, offset)}`;
}

/** Fastify's own errors the API answers with a code of its table. */
const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    "unsupported_media_type",
    "Send the body as JSON with Content-Type: application/json",
  ],
  FST_ERR_CTP_INVALID_TYPE: ["unsupported_media_type", "Send the body as JSON with Content-Type: application/json"],
  FST_ERR_CTP_BODY_TOO_LARGE: ["payload_too_large", `Body is larger than ${BODY_LIMIT} bytes`],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["bad_request", "Content-Length does not match the body"],
  FST_ERR_CTP_EMPTY_JSON_BODY: ["malformed_json", "Body is empty but Content-Type says JSON"],
  FST_ERR_BAD_URL: ["bad_request", "The URL is not valid (bad percent-encoding)"],
  // An id longer than the router keeps names nothing: the same 404 as an unknown id.
  FST_ERR_MAX_PARAM_LENGTH: ["not_found", "No such resource: the id is too long to be one"],
};

/** The code of each 4xx status with one meaning, for errors raised by plugins (e.g. 429). */
const BY_STATUS = new Map<number, ErrorCode>(
  (Object.entries(ERROR_STATUS) as [ErrorCode, number][])
    .filter(([code]) => code !== "malformed_json")
    .map(([c, s]) => [s, c]),
);

/**
 * JSON only (64 KiB), an `X-Request-Id` on every response, and one error handler that renders every failure in the API's envelope and hides
 * the internals of 5xx.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    if (body === "") return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch (err) {
      done(new ApiError("malformed_json", `Body is not valid JSON: ${(err as Error).message}`), undefined);
    }
  });

  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] as string;
    const err = new ApiError("not_found", `No route ${request.method} ${path.slice(0, 200)}`);
    reply.code(err.statusCode).send(errorBody(err, request.id));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const err = toApiError(error);
    if (err.statusCode >= 500) request.log.error({ err: error }, "request failed");
    for (const [name, value] of Object.entries(err.headers ?? {})) reply.header(name, value);
    reply.code(err.statusCode).send(errorBody(err, request.id));
  });
}

/**
 * Errors the router raises before any route or hook runs (a bad URL, an over-long id): answered
 * in the envelope too. Pass as Fastify's `frameworkErrors` option.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const err = toApiError(error);
  reply.header("x-request-id", request.id).code(err.statusCode).send(errorBody(err, request.id));
}

/**
 * Requests Node's HTTP parser refuses never reach Fastify: broken framing (400), headers over
 * 16 KiB (431; 414 when the request line alone is that long) and a request timeout (408). The
 * answer is written on the socket, still in the envelope. Pass as `clientErrorHandler`.
 */
export function clientErrorHandler(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  let err: ApiError;
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    err = new ApiError("request_timeout", "The request was not received in time");
  } else if (error.code === "HPE_HEADER_OVERFLOW") {
    err = requestLineTooLong(error.rawPacket)
      ? new ApiError("uri_too_long", "The request line (method, path and query) is too long")
      : new ApiError("header_fields_too_large", "Request headers are larger than 16 KiB");
  } else if (error.code === "HPE_INVALID_HEADER_TOKEN" || error.code === "HPE_INVALID_HEADER_VALUE_CHAR") {
    err = new ApiError(
      "bad_request",
      "A header name or value holds a character HTTP forbids, such as a control character",
    );
  } else {
    err = new ApiError("bad_request", "The request is not valid HTTP/1.1");
  }
  const id = newRequestId();
  const body = JSON.stringify(errorBody(err, id));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${err.statusCode} ${reason(err.statusCode)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Half of Node's 16 KiB header limit spent on the request line alone: the URL is the problem. */
const LONG_REQUEST_LINE = 8 * 1024;

function requestLineTooLong(raw: unknown): boolean {
  if (!Buffer.isBuffer(raw)) return false;
  const end = raw.indexOf("\r\n");
  return end === -1 || end > LONG_REQUEST_LINE;
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  414: "URI Too Long",
  431: "Request Header Fields Too Large",
};
const reason = (status: number) => REASONS[status] ?? "Error";

function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    // An id of the wrong shape names nothing: the same 404 as an unknown id.
    if (error.validationContext === "params") return new ApiError("not_found", "No such resource");
    return validationFailed(validationDetails(error));
  }
  const known = FASTIFY_CODES[error.code];
  if (known) return new ApiError(known[0], known[1]);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(BY_STATUS.get(status) ?? "bad_request", error.message);
  return new ApiError("internal_error", "Internal server error; the request id identifies it in the server's log");
}

function validationDetails(
  error: FastifyError & { validation: NonNullable<FastifyError["validation"]> },
): ErrorDetail[] {
  const where = error.validationContext === "body" ? undefined : error.validationContext;
  return issuesToDetails(
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
}
