import { z } from "zod";

/**
 * The record of one notification to a channel (extension, `GET /api/v1/channels/<id>/deliveries`):
 * what it was, and how it ended. A receiver's refusal (a 4xx) is `failed` after one attempt, with
 * the receiver's reason; a 5xx, a 429 or no answer is retried before it is `failed`.
 */
export const DeliverySchema = z
  .object({
    id: z.string(),
    monitor_id: z.string(),
    /** The incident it belongs to (down, reminders, escalations and the resolve share it); null for degraded notices. */
    incident_id: z.string().nullable(),
    kind: z.enum(["trigger", "reminder", "escalation", "resolve", "notice"]),
    event: z.string(),
    status: z.enum(["pending", "delivered", "failed", "cancelled"]),
    attempts: z.int(),
    /** The HTTP status of the last answer, if any. */
    status_code: z.int().nullable(),
    /** Why the last attempt failed, as the receiver said it (secrets blanked). */
    reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Delivery" });
export type Delivery = z.infer<typeof DeliverySchema>;
