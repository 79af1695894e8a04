import type { ErrorDetail } from "../../api";

/**
 * A failed API call: the API's code, HTTP status, message, field details and request id. Callers
 * branch on `code` (never `instanceof`: provider code may load a second copy of this module).
 */
export class UptimeApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly apiMessage: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId?: string,
    /** How many times the request was sent (retries included). */
    readonly attempts = 1,
  ) {
    const fields = details.length ? `: ${details.map((d) => `${d.field} ${d.message}`).join("; ")}` : "";
    const request = requestId ? ` (request ${requestId})` : "";
    super(`uptime API ${code} (HTTP ${status}): ${details.length ? "invalid request" : apiMessage}${fields}${request}`);
    this.name = "UptimeApiError";
  }
}

/** True for an UptimeApiError (from any copy of this module) with that code. */
export function hasCode(err: unknown, code: string): err is UptimeApiError {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === code;
}

/** A problem with the provider's own settings (connection, inputs), found before any request. */
export class UptimeConfigError extends Error {
  readonly code = "config_error";
}
