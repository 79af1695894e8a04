import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { type BatchItem, BatchRequestSchema, batchResultSchema, issuesToDetails } from "../../api";
import { ApiError, errorBody, validationFailed } from "../errors";
import { keyedCreate } from "../http/keyed-create";
import { principalOf } from "../http/types";
import type { Principal } from "../store/keys";
import type { CrudSpec } from "./crud-spec";
import { errorResponses } from "./responses";

type AnySpec = CrudSpec<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;
type ItemAnswer = { status: number; [field: string]: unknown };

/**
 * `POST <collection>/batch` (an extension): up to 100 creates, updates and deletes of one kind in
 * one request, which counts once against the rate limit. Each item is what its single call would
 * be: checked by the same schema, with its own `idempotency_key` (shared with the header of single
 * creates: either replays the other), run on its own, answered with the single call's status and
 * body. A failed item fails only itself; the request answers 200 with every item's answer.
 */
export function batchRoutes(fastify: FastifyInstance, spec: AnySpec): void {
  fastify.post(
    `${spec.path}/batch`,
    {
      schema: {
        tags: [spec.tag],
        summary: `Create, update or delete up to 100 ${spec.tag.toLowerCase()} in one request`,
        body: BatchRequestSchema,
        response: { 200: batchResultSchema(spec.item), ...errorResponses("POST", { validated: true }) },
      },
    },
    async (req) => {
      const principal = principalOf(req);
      const items: ItemAnswer[] = [];
      // One after another, as the single calls would run: a later item may depend on an earlier one.
      for (const item of (req.body as { items: BatchItem[] }).items)
        items.push(await answerOf(req, async () => await runItem(req, spec, principal, item)));
      return { ok: true as const, data: { items } };
    },
  );
}

/** One item's answer: its success, or its error in the API's envelope (5xx without internals). */
async function answerOf(req: FastifyRequest, run: () => Promise<ItemAnswer>): Promise<ItemAnswer> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) return { status: err.statusCode, ...errorBody(err, req.id) };
    req.log.error({ err }, "batch item failed");
    const internal = new ApiError(
      "internal_error",
      "Internal server error; the request id identifies it in the server's log",
    );
    return { status: internal.statusCode, ...errorBody(internal, req.id) };
  }
}

async function runItem(req: FastifyRequest, spec: AnySpec, principal: Principal, item: BatchItem): Promise<ItemAnswer> {
  const { service } = spec;
  if (item.op === "create") return await create(req, spec, principal, item);
  const id = idOf(spec, item.id);
  if (item.op === "update")
    return { status: 200, ok: true, data: await service.update(principal, id, parsed(spec.update, item.body)) };
  return { status: 200, ok: true, data: await service.delete(principal, id) };
}

/** A create, replayed or kept under its key exactly as `POST <collection>` with the header would be. */
async function create(
  req: FastifyRequest,
  spec: AnySpec,
  principal: Principal,
  item: Extract<BatchItem, { op: "create" }>,
): Promise<ItemAnswer> {
  const body = parsed(spec.create, item.body);
  const key = item.idempotency_key;
  if (key === undefined) return { status: 201, ok: true, data: await spec.service.create(principal, body) };
  return await keyedCreate(
    req.server,
    principal.accountId,
    key,
    spec.path,
    body,
    async () => await spec.service.create(principal, body),
  );
}

/** The body as the single call's schema reads it; its refusal names the field, as there. */
function parsed(schema: z.ZodType, body: unknown): unknown {
  const result = schema.safeParse(body);
  // PATCH bodies have no `type`: say why rather than "unknown field" (as the single calls do).
  if (!result.success) throw validationFailed(issuesToDetails(result.error.issues, ["type"]));
  return result.data;
}

/** An id of the wrong shape names nothing: the same 404 as the single call's. */
function idOf(spec: AnySpec, id: string): string {
  if (!spec.params.safeParse({ id }).success) throw new ApiError("not_found", "No such resource");
  return id;
}
