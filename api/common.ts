import { z } from "zod";

/** Every error code the API answers with, and the HTTP status that carries it. */
export const ERROR_STATUS = {
  malformed_json: 400,
  unauthorized: 401,
  monitor_limit_reached: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal_error: 500,
  delivery_failed: 502,
} as const;

/** A stable, machine-readable error code (see the README's error table). */
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** One offending field of a request: `field` is a path such as `headers.x-token` or `channel_ids[1]`. */
export const ErrorDetailSchema = z.object({
  field: z.string(),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;

export const ErrorEnvelopeSchema = z
  .object({
    ok: z.literal(false),
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string(),
      details: z.array(ErrorDetailSchema).optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: "ErrorEnvelope" });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** `{ok: true, data}`: the success envelope around one object. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ ok: z.literal(true), data });
}

/** `{ok: true, data: [...], next_cursor}`: the success envelope around one page of a list. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ ok: z.literal(true), data: z.array(item), next_cursor: z.string().nullable() });
}

/** RFC 3339 UTC timestamp. */
export const Timestamp = z.iso.datetime();

/** Query of every list call: `limit` 1..200 (default 50) and the opaque `cursor` of the previous page. */
export const ListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(200).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** Path parameter `id`: any string; an unknown id is a 404, not a validation error. */
export const IdParamsSchema = z.strictObject({ id: z.string().min(1).max(100) });

/**
 * A display name or title: 1..120 characters kept exactly as written (leading and trailing spaces
 * included, so a read returns what was sent); it must not be only spaces.
 */
export const displayName = () =>
  z
    .string()
    .min(1, "must not be empty")
    .max(120, "must be at most 120 characters")
    .regex(/\S/, "must not be only spaces");

/** The longest `external_id`. */
export const EXTERNAL_ID_MAX = 255;

/**
 * `external_id`: a mark the client sets at create (and may change with PATCH, or clear with null)
 * that names the object in its own system, e.g. the Pulumi stack and resource that created it.
 * Unique per account and kind; reads return it.
 */
export const ExternalIdSchema = z
  .string()
  .min(1, "must not be empty")
  .max(EXTERNAL_ID_MAX, `must be at most ${EXTERNAL_ID_MAX} characters`)
  // eslint-disable-next-line no-control-regex -- the rule is precisely about control characters
  .regex(/^[^\u0000-\u001f\u007f]+$/, "must not contain control characters")
  .nullable();

/**
 * The `externalId` row of every kind's field table: the mark the provider writes at create
 * (`pulumi/<project>/<stack>/<Kind>/<name>`). An output only: it is derived, never declared, so
 * it never shows in a diff.
 */
export const EXTERNAL_ID_FIELD = {
  api: "external_id",
  type: { type: "string", nullable: true },
  outputOnly: true,
  setByProvider: true,
  description: "The stack's mark on the object, `pulumi/<project>/<stack>/<Kind>/<name>`, set at create.",
} as const;
