import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from "../api";

/** An error the API answers with: its code fixes the HTTP status (one table, in api/common.ts). */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
    this.statusCode = ERROR_STATUS[code];
  }
}

export const notFound = (what: string, id: string) => new ApiError("not_found", `${what} ${id} does not exist`);

export const validationFailed = (details: ErrorDetail[]) =>
  new ApiError(
    "validation_failed",
    `Request is invalid: ${details.map((d) => `${d.field}: ${d.message}`).join("; ")}`,
    details,
  );

/** The error envelope of the API; a 5xx never carries internals. */
export function errorBody(err: ApiError, requestId: string) {
  return {
    ok: false as const,
    error: {
      code: err.code,
      message: err.message,
      ...(err.details?.length ? { details: err.details } : {}),
      request_id: requestId,
    },
  };
}
