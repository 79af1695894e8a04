import { z } from "zod";
import { outputField } from "./field-table";

/** Every error code the API answers with, and the HTTP status that carries it. */
export const ERROR_STATUS = {
  malformed_json: 400,
  bad_request: 400,
  unauthorized: 401,
  monitor_limit_reached: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  header_fields_too_large: 431,
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

/**
 * Metadata that only the OpenAPI document carries, not every JSON Schema of the module: an enum
 * too long for the provider's schema and SDKs (the IANA time zones), which the zod rule checks
 * all the same. The server's document registry reads it (server/http/openapi-registry.ts).
 */
export const documentOnlyMeta = z.registry<z.core.GlobalMeta>();

/** RFC 3339 UTC timestamp. */
export const Timestamp = z.iso.datetime();

/**
 * A whole number in a query string, strictly decimal digits: `0x10`, `1e2`, ` 24` and `24.0` are
 * refused (422) rather than read as a number. Documented as an integer in the OpenAPI document.
 */
export function queryInt(min: number, max: number, fallback: number) {
  const range = `must be between ${min} and ${max}`;
  return z
    .string()
    .optional()
    .refine((v) => v === undefined || /^\d{1,9}$/.test(v), "must be a whole number")
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.int().min(min, range).max(max, range))
    .meta({ type: "integer", minimum: min, maximum: max, default: fallback });
}

/** The largest page a list call answers (its `limit`'s bound). */
export const LIST_LIMIT_MAX = 200;

/** Query of every list call: `limit` 1..{@link LIST_LIMIT_MAX} (default 50) and the opaque `cursor` of the previous page. */
export const ListQuerySchema = z.strictObject({
  limit: queryInt(1, LIST_LIMIT_MAX, 50),
  cursor: z.string().min(1).max(200).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** The longest display name or title (monitors, channels, status pages, maintenance windows, page sections and components). */
export const NAME_MAX = 120;

/**
 * A display name or title: 1..{@link NAME_MAX} characters kept exactly as written (leading and
 * trailing spaces included, so a read returns what was sent); it must not be only spaces.
 */
export const displayName = () =>
  z
    .string()
    .min(1, "must not be empty")
    .max(NAME_MAX, `must be at most ${NAME_MAX} characters`)
    .regex(/\S/, "must not be only spaces");

/** The longest tag (a monitor's, and the one a trigger, a list or an incident rule selects by). */
export const TAG_MAX = 50;

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
 * (`pulumi/<project>/<stack>/<instance>/<Kind>/<name>`). An output only: it is derived, never
 * declared, so it never shows in a diff.
 */
export const EXTERNAL_ID_FIELD = {
  api: "external_id",
  type: { type: "string", nullable: true },
  outputOnly: true,
  setByProvider: true,
  description: "The stack's mark on the object, `pulumi/<project>/<stack>/<instance>/<Kind>/<name>`, set at create.",
} as const;

/** The field-table rows of when an object was created and last changed: outputs of every kind. */
export function timestampRows<const Noun extends string>(noun: Noun) {
  return {
    /** When the object was created. */
    createdAt: outputField("created_at", "string", `When the ${noun} was created.`),
    /** When the object last changed. */
    updatedAt: outputField("updated_at", "string", `When the ${noun} last changed.`),
  } as const;
}

/** The field-table row of a display name (monitors, channels): the resource's name by default. */
export const DISPLAY_NAME_FIELD = {
  api: "name",
  type: { type: "string" },
  description: `Display name, 1..${NAME_MAX} characters, kept exactly as written; not only spaces.`,
  defaultDoc: "the resource name",
} as const;

/** Values in words, in their order: "`a`, `b` or `c`"; the default, if given, marked: "`a` (default), `b` or `c`". */
export function inWords(values: readonly string[], byDefault?: string): string {
  const quoted = values.map((value) => `\`${value}\`${value === byDefault ? " (default)" : ""}`);
  return quoted.length < 2 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** The field-table row of a `type` fixed at creation (monitors, channels): one of `types`; a change replaces the `kind`. */
export function typeField<const T extends readonly string[]>(types: T, kind: string) {
  return {
    api: "type",
    type: { type: "string", enum: types },
    required: true,
    replaceOnChange: true,
    description: `${inWords(types)}; a change replaces the ${kind}.`,
  } as const;
}

/** The prefix of each kind's ids (`mon_…`). */
export const ID_PREFIX = { monitor: "mon", channel: "chn", statusPage: "sp", maintenanceWindow: "mw" } as const;

/** Length of the part of an id after its prefix: 12 hex of time, 4 of sequence, 12 random. */
const ID_BODY = 28;

/** The shape of an id with this prefix (`sp` → `sp_` and {@link ID_BODY} hex digits). */
export function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_[0-9a-f]{${ID_BODY}}$`);
}

/**
 * Path parameter `id` of one kind: its prefix and length. An id of another shape names nothing,
 * so the server answers 404 (not 422), as for any unknown id.
 */
export function idParams(prefix: (typeof ID_PREFIX)[keyof typeof ID_PREFIX]) {
  return z.strictObject({ id: z.string().regex(idPattern(prefix)) });
}

/** `check` of `raw` parsed, or why it is not an absolute URL. */
export function absoluteUrl(raw: string, check: (url: URL) => string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  return check(url);
}
