/**
 * The message a user reads when a resource fails during `pulumi up`: which resource, what the
 * provider was doing, the field, the API's code and request id, and what to do about it.
 */
import type { ErrorDetail } from "../../api";
import { toCamel } from "../kinds/values";

/** Where a failure happened. */
export interface FailureContext {
  /** `Monitor`, `Channel`, `StatusPage`. */
  kind: string;
  /** The Pulumi resource name (or, without one, the display name). */
  resource: string;
  /** `create`, `update`, `read`, `delete`. */
  action: string;
  baseUrl: string;
  /**
   * Where the API key came from, as a phrase (`the resource's \`connection.apiKey\` as recorded in
   * state`); never the key.
   */
  keyFrom?: string;
}

interface ApiLike {
  code: string;
  status: number;
  apiMessage?: string;
  message: string;
  details?: ErrorDetail[];
  requestId?: string;
  attempts?: number;
}

const isApiError = (err: unknown): err is ApiLike =>
  typeof err === "object" &&
  err !== null &&
  typeof (err as ApiLike).code === "string" &&
  typeof (err as ApiLike).status === "number";

const tries = (e: ApiLike) => (e.attempts && e.attempts > 1 ? ` after ${e.attempts} attempts` : "");

/** What to do, per API code (and for failures that never reached the service). */
function advice(e: ApiLike, ctx: FailureContext): string {
  switch (e.code) {
    case "network_error":
      return `The service at ${ctx.baseUrl} could not be reached${tries(e)}. Check \`uptime:baseUrl\` (or UPTIME_API_URL, or the resource's \`connection.baseUrl\`) and that the service is running, then run \`pulumi up\` again.`;
    case "unauthorized":
      return (
        `The service at ${ctx.baseUrl} refused the API key${ctx.keyFrom ? ` from ${ctx.keyFrom}` : ""}: it is wrong or has been revoked. ` +
        "Set a valid key there (`pulumi config set --secret uptime:apiKey uk_…`, UPTIME_API_KEY, or the resource's `connection.apiKey`); " +
        "a key recorded in state for a resource's `connection` is rewritten by the next `pulumi up` after you change it."
      );
    case "timeout":
      return "Raise the resource's `customTimeouts` if the service is slow, or check that it is healthy; `pulumi up` can be run again safely.";
    case "monitor_limit_reached":
      return "The account is at its monitor allowance. Delete monitors you no longer need or ask for a higher limit, then run `pulumi up` again; the monitors created so far are kept in the stack.";
    case "rate_limited":
      return "Other clients may be spending the same API key. Raise the resource's timeout (`customTimeouts`; the provider waits for the rate limit up to 20 minutes by default), give this stack its own key, or run `pulumi up` again later: creates are idempotent.";
    case "validation_failed":
      return "Fix the input named above, then run `pulumi up` again.";
    case "conflict":
      return "Another object holds this value (a status-page slug is unique on the service): choose another, or take the object over with `adopt`.";
    case "not_found":
      return "The object no longer exists: run `pulumi refresh`, then `pulumi up` recreates it.";
    default:
      return e.status >= 500
        ? `The service failed${tries(e)}. Run \`pulumi up\` again: creates are idempotent, so nothing is created twice. If it persists, give the request id to the service's operator.`
        : "See the API's message above.";
  }
}

/** `channel_ids[0]` → `channelIds[0]`, `headers.x-token` unchanged past the first segment. */
const property = (field: string) => field.replace(/^[a-z_0-9]+/, toCamel);

/** `intervalSec: must be between 30 and 86400; channelIds[0]: …`, in input property names. */
const fields = (details: readonly ErrorDetail[]) => details.map((d) => `${property(d.field)}: ${d.message}`).join("; ");

/**
 * What the API said: a 422's message is its field details (`Request is invalid: interval_sec: …`),
 * so it is given once, in input property names; another code's message, then its fields if any.
 */
function said(e: ApiLike): string {
  if (!e.details?.length) return `${e.apiMessage ?? e.message}.`;
  if (e.code === "validation_failed") return `${fields(e.details)}.`;
  return `${e.apiMessage ?? e.message}. Field ${fields(e.details)}.`;
}

/**
 * The error to show for a failed provider call: an API error gets the resource, field, code,
 * request id and advice; anything else is returned as it is.
 */
export function explainFailure(err: unknown, ctx: FailureContext): unknown {
  if (!isApiError(err)) return err;
  const request = err.requestId ? `request ${err.requestId}` : "no request id: the service did not answer";
  const http = err.status ? `HTTP ${err.status}, ` : "";
  const message =
    `${ctx.kind} "${ctx.resource}" could not be ${done(ctx.action)}: uptime API ${err.code} (${http}${request}): ` +
    `${said(err)} ${advice(err, ctx)}`;
  const explained = new Error(message.replace(/\.\./g, "."));
  explained.name = "UptimeApiError";
  Object.assign(explained, { code: err.code, status: err.status, requestId: err.requestId, details: err.details });
  return explained;
}

const done = (action: string) =>
  ({ create: "created", update: "updated", read: "read", delete: "deleted" })[action] ?? action;
