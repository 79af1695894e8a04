import { z } from "zod";

/** The longest URL a monitor, a step or a channel takes, in characters. */
export const MAX_URL_LENGTH = 2048;
/** The message a URL over {@link MAX_URL_LENGTH} gets. */
export const URL_TOO_LONG = `must be at most ${MAX_URL_LENGTH} characters`;

/** One expected status (a monitor's, a step's): a code such as 204, or a class such as "2xx". */
export const StatusCodeRuleSchema = z.union([
  z.int().min(100, "must be a status code between 100 and 599").max(599, "must be a status code between 100 and 599"),
  z.string().regex(/^[1-5]xx$/, 'must be a status code or a class such as "2xx"'),
]);

/** A request body (a monitor's, a step's): at most 16384 characters. A new schema at each call. */
export function requestBody() {
  return z.string().max(16_384, "must be at most 16384 characters");
}

/** A header name as RFC 9110 allows it (a token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Request headers as a create or PATCH body takes them: valid names, values without line breaks
 * (at most 8192 characters each), at most 50. A new schema at each call, described by `description`.
 */
export function requestHeaders(description: string) {
  return z
    .record(
      z.string().regex(HEADER_NAME, "must be a valid header name"),
      z
        .string()
        .max(8192)
        .regex(/^[^\r\n]*$/, "must not contain line breaks"),
    )
    .refine((h) => Object.keys(h).length <= 50, "must have at most 50 headers")
    .meta({ description });
}
