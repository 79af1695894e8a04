import type { FastifyInstance, FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";
import { envelope, listEnvelope } from "../../api";
import { joinJson, keptJson } from "../http/kept-json";
import { serializerCompiler } from "../http/serializer";
import { principalOf } from "../http/types";
import { batchRoutes } from "./batch";
import type { CrudSpec } from "./crud-spec";
import { errorResponses } from "./responses";

export type { CrudService, CrudSpec } from "./crud-spec";

const JSON_TYPE = "application/json; charset=utf-8";
const ONE_HEAD = Buffer.from('{"ok":true,"data":');
const ONE_TAIL = Buffer.from("}");

/** List, create, get, PATCH and DELETE of one kind, all through its service. */
export function crudRoutes<I extends z.ZodType, C extends z.ZodType, U extends z.ZodType, Q extends z.ZodType>(
  fastify: FastifyInstance,
  spec: CrudSpec<I, C, U, Q>,
): void {
  // Generic schemas defeat the type provider's inference; the schemas still validate each request.
  const app = fastify;
  const { service, params } = spec;
  const tags = [spec.tag];
  const summary = spec.summary;
  const one = { 200: envelope(spec.item), ...errorResponses("GET", { id: true }) };
  // Items are objects (the schemas of every kind are): their JSON can be kept per object.
  const itemJson = keptJson(
    serializerCompiler({ schema: spec.item, method: "GET", url: spec.path, httpStatus: "200" }) as (
      item: object,
    ) => string,
  ) as (item: z.output<I>) => Buffer;

  app.get(
    spec.path,
    {
      schema: {
        tags,
        summary,
        querystring: spec.query,
        response: { 200: listEnvelope(spec.item), ...errorResponses("GET", { validated: true }) },
      },
    },
    // Written here, item by item (each kept item's JSON kept with it), as the response schema writes it.
    async (req, reply) => {
      const page = await service.list(principalOf(req), req.query as never);
      const tail = `],"next_cursor":${JSON.stringify(page.next_cursor)}}`;
      return reply.type(JSON_TYPE).send(joinJson('{"ok":true,"data":[', page.data.map(itemJson), tail));
    },
  );
  app.post(
    spec.path,
    {
      schema: {
        tags,
        summary,
        body: spec.documentedCreate ?? spec.create,
        response: {
          201: envelope(spec.item),
          ...errorResponses("POST", { validated: true, extra: spec.createErrors }),
        },
      },
      // The route-level compiler is typed against the whole route schema; it is called per part.
      ...(spec.documentedCreate && { validatorCompiler: validateBodyWith(spec.create) as never }),
    },
    // Returned, not sent: a keyed create's answer is kept in its transaction (see http/idempotency.ts).
    async (req, reply) => {
      reply.code(201);
      return { ok: true as const, data: await service.create(principalOf(req), req.body as never) };
    },
  );
  if (!spec.itemRoutes) return;
  if (app.settings.extensions && app.settings.batchWrites) batchRoutes(app, spec as never);
  const item = `${spec.path}/:id`;
  app.get(item, { schema: { tags, summary, params, response: one } }, async (req, reply) =>
    reply
      .type(JSON_TYPE)
      .send(Buffer.concat([ONE_HEAD, itemJson(await service.get(principalOf(req), idOf(req))), ONE_TAIL])),
  );
  app.patch(
    item,
    {
      schema: {
        tags,
        summary,
        params,
        body: spec.update,
        response: {
          200: envelope(spec.item),
          ...errorResponses("PATCH", { id: true, validated: true, extra: [409, ...(spec.updateErrors ?? [])] }),
        },
      },
    },
    async (req) => ({ ok: true as const, data: await service.update(principalOf(req), idOf(req), req.body as never) }),
  );
  app.delete(
    item,
    {
      schema: {
        tags,
        summary,
        params,
        response: { 200: envelope(spec.item), ...errorResponses("DELETE", { id: true }) },
      },
    },
    async (req) => ({ ok: true as const, data: await service.delete(principalOf(req), idOf(req)) }),
  );
}

const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

/** Validates the body with `schema` (not the documented one), everything else as usual. */
export function validateBodyWith(schema: z.ZodType): FastifySchemaCompiler<never> {
  return (route) => validatorCompiler(route.httpPart === "body" ? { ...route, schema } : (route as never));
}
