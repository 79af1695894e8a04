import type { FastifyReply, FastifyRequest } from "fastify";
import type { IncomingHttpHeaders } from "node:http";
import type { PageAnswer } from "../services/page-answer";

/** Whether the request's validators (`If-None-Match`, else `If-Modified-Since`) match the answer. */
export function notModified(headers: IncomingHttpHeaders, answer: PageAnswer): boolean {
  const tags = headers["if-none-match"];
  if (tags !== undefined)
    return tags.trim() === "*" || tags.split(",").some((t) => t.trim().replace(/^W\//, "") === answer.etag);
  const since = headers["if-modified-since"];
  if (since === undefined) return false;
  const at = Date.parse(since);
  return !Number.isNaN(at) && Date.parse(answer.lastModified) <= at;
}

/**
 * Sends a page's answer with its validators and `cacheControl` (content type and other headers
 * already set): 304 without a body when the request's validators match.
 */
export function sendAnswer(
  req: FastifyRequest,
  reply: FastifyReply,
  answer: PageAnswer,
  cacheControl: string,
): FastifyReply {
  reply.header("etag", answer.etag).header("last-modified", answer.lastModified).header("cache-control", cacheControl);
  if (notModified(req.headers, answer)) return reply.code(304).send();
  return reply.send(answer.body);
}
