import { ErrorEnvelopeSchema } from "../../api";

type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** What each route can add to the errors every authenticated route may answer. */
export interface ErrorTraits {
  /** Has an `{id}` path parameter: 404 for an unknown id. */
  id?: boolean;
  /** Has a query string or body with rules: 422. */
  validated?: boolean;
  /** Other statuses this operation answers (409 slug, 502 delivery). */
  extra?: number[];
  /** The public document: no key, so no 401. */
  public?: boolean;
}

/**
 * The error responses of one operation, each with the envelope schema, so the OpenAPI document
 * names every status a client may see: 400 (a header or URL the server refuses), 401, 405 (known
 * path, other method), 429, 500; 404 with an id; 413/415 wherever a body may be sent; 409 and
 * 422 on every POST (an `Idempotency-Key` reused or malformed).
 */
export function errorResponses(method: Method, traits: ErrorTraits = {}) {
  const codes = new Set<number>([400, 405, 429, 500, ...(traits.extra ?? [])]);
  // 403: an agent key on the management API, or a management key on the agent API.
  if (!traits.public) {
    codes.add(401);
    codes.add(403);
  }
  if (traits.id || traits.public) codes.add(404);
  if (traits.validated) codes.add(422);
  if (method !== "GET") {
    codes.add(413);
    codes.add(415);
  }
  if (method === "POST") {
    codes.add(409);
    codes.add(422);
  }
  return Object.fromEntries([...codes].sort().map((code) => [code, ErrorEnvelopeSchema]));
}
