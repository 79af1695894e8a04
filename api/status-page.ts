import { z } from "zod";
import { displayName, EXTERNAL_ID_FIELD, ExternalIdSchema, Timestamp } from "./common";
import type { FieldTable } from "./fields";

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

/** The status page's field table (see fields.ts). */
export const STATUS_PAGE_FIELDS = {
  /** 3..64 characters of a-z, 0-9 and -; unique on the service. The public document is at /api/status/<slug>.json. */
  slug: {
    api: "slug",
    type: { type: "string" },
    required: true,
    description: "3..64 of `a-z 0-9 -`, unique on the service; a change moves the public URL in place.",
  },
  /** Title shown on the page, 1..120 characters. */
  title: {
    api: "title",
    type: { type: "string" },
    required: true,
    description: "Title shown on the page, 1..120 characters, kept exactly as written; not only spaces.",
  },
  /** Optional text under the title. */
  description: {
    api: "description",
    type: { type: "string", nullable: true },
    description: "Optional text under the title, at most 2000 characters.",
    default: null,
  },
  /** Monitors shown on the page; a set. */
  monitorIds: {
    api: "monitor_ids",
    type: { type: "array", items: { type: "string" } },
    normal: "set",
    description: "Monitors shown on the page; a set.",
    default: [],
  },
  /** URL of the public status document (no key needed). */
  publicUrl: {
    type: { type: "string" },
    outputOnly: true,
    description: "URL of the public status document, `GET /api/status/<slug>.json` (no key needed).",
  },
  /** URL of the page for people (HTML, no key needed). */
  pageUrl: {
    type: { type: "string" },
    outputOnly: true,
    description: "URL of the status page people open, `GET /status/<slug>` (HTML, no key needed).",
  },
  /** When the page was created. */
  createdAt: { api: "created_at", type: { type: "string" }, outputOnly: true, description: "When the page was created." },
  /** When the page last changed. */
  updatedAt: { api: "updated_at", type: { type: "string" }, outputOnly: true, description: "When the page last changed." },
  /** The stack's mark on the page, set at create (see "Interrupted deployments"). */
  externalId: EXTERNAL_ID_FIELD,
} as const satisfies FieldTable;

/** `GET /api/status/<slug>.json`: names and health only, never URLs, headers or ids. */
export const StatusDocumentSchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    /** `maintenance` (extension): a maintenance window is in effect and nothing is down. */
    status: z.enum(["operational", "degraded", "down", "unknown", "maintenance"]),
    updated_at: Timestamp,
    monitors: z.array(
      z.object({
        name: z.string(),
        /** `maintenance` (extension): a maintenance window covers the monitor now. */
        /** `degraded`: up, but slower than the monitor's `degraded_response_ms`. */
        status: z.enum(["up", "degraded", "down", "pending", "paused", "maintenance"]),
        uptime_pct_24h: z.number().nullable(),
        uptime_pct_30d: z.number().nullable(),
        last_checked_at: Timestamp.nullable(),
      }),
    ),
  })
  .meta({ id: "StatusDocument" });
export type StatusDocument = z.infer<typeof StatusDocumentSchema>;
