import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ID_PREFIX, idParams, idPattern } from "../../api";
import { principalOf } from "../http/types";
import { errorResponses } from "./responses";

const params = idParams(ID_PREFIX.monitor).extend({ heartbeat: z.string().regex(idPattern("hb")) });

/**
 * GET /api/v1/monitors/<id>/heartbeats/<heartbeat>/screenshot: the PNG a failed browser run left
 * (see the heartbeat's `browser.screenshot`); 404 when the run kept none.
 */
export async function screenshotRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    "/api/v1/monitors/:id/heartbeats/:heartbeat/screenshot",
    {
      schema: {
        tags: ["monitors"],
        params,
        description: "The screenshot of a failed browser monitor's run, as `image/png`.",
        response: {
          200: z.any().meta({ description: "The PNG (`image/png`)." }),
          ...errorResponses("GET", { id: true }),
        },
      },
    },
    async (req, reply) => {
      const png = await fastify.services.monitors.screenshot(principalOf(req), req.params.id, req.params.heartbeat);
      return reply
        .header("content-type", "image/png")
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, max-age=86400")
        .send(png);
    },
  );
}
