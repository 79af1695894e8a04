import { z } from "zod";
import { displayName, ExternalIdSchema, Timestamp } from "./common";

const slug = z
  .string()
  .min(3, "must be 3 to 64 characters")
  .max(64, "must be 3 to 64 characters")
  .regex(/^[a-z0-9-]+$/, "must use only a-z, 0-9 and -");
const title = displayName();
const description = z.string().max(2000, "must be at most 2000 characters").nullable();
const monitorIds = z.array(z.string().min(1).max(100)).max(200, "must have at most 200 monitors");

/** The body of `POST /api/v1/status-pages`. */
export const CreateStatusPageSchema = z
  .strictObject({
    slug,
    title,
    description: description.optional(),
    monitor_ids: monitorIds.optional(),
    external_id: ExternalIdSchema.optional(),
  })
  .meta({ id: "CreateStatusPage" });
export type CreateStatusPage = z.infer<typeof CreateStatusPageSchema>;

/** The body of `PATCH /api/v1/status-pages/<id>` (extension). */
export const UpdateStatusPageSchema = CreateStatusPageSchema.partial().meta({ id: "UpdateStatusPage" });
export type UpdateStatusPage = z.infer<typeof UpdateStatusPageSchema>;

/** A status page as the API returns it. */
export const StatusPageSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    monitor_ids: z.array(z.string()),
    /** The client's mark (see `ExternalIdSchema`); null when none was set. */
    external_id: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "StatusPage" });
export type StatusPage = z.infer<typeof StatusPageSchema>;

/** `GET /api/status/<slug>.json`: names and health only, never URLs, headers or ids. */
export const StatusDocumentSchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    status: z.enum(["operational", "degraded", "down", "unknown"]),
    updated_at: Timestamp,
    monitors: z.array(
      z.object({
        name: z.string(),
        status: z.enum(["up", "down", "pending", "paused"]),
        uptime_pct_24h: z.number().nullable(),
        uptime_pct_30d: z.number().nullable(),
        last_checked_at: Timestamp.nullable(),
      }),
    ),
  })
  .meta({ id: "StatusDocument" });
export type StatusDocument = z.infer<typeof StatusDocumentSchema>;
