import { z } from "zod";
import { ErrorEnvelopeSchema } from "./common";

/** Most items one batch request may carry. */
export const BATCH_MAX_ITEMS = 100;

/** `Idempotency-Key`'s rule, for the key a batch item carries in its body. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** A body checked item by item, with the kind's own create or update schema. */
const ItemBody = z.record(z.string(), z.unknown());

/**
 * One write of a batch: a create (with its own `Idempotency-Key`), an update (PATCH) or a delete
 * of one object of the collection the batch is posted to.
 */
export const BatchItemSchema = z.discriminatedUnion("op", [
  z.strictObject({
    op: z.literal("create"),
    /** Does what the header does on a single create: the same key and body get the first answer again. */
    idempotency_key: z.string().regex(IDEMPOTENCY_KEY, "must be 1 to 255 visible ASCII characters").optional(),
    /** The create body, checked as `POST <collection>` checks it. */
    body: ItemBody,
  }),
  z.strictObject({
    op: z.literal("update"),
    id: z.string(),
    /** The PATCH body, checked as `PATCH <collection>/{id}` checks it. */
    body: ItemBody,
  }),
  z.strictObject({ op: z.literal("delete"), id: z.string() }),
]);
export type BatchItem = z.infer<typeof BatchItemSchema>;

/** `POST <collection>/batch`: 1 to 100 writes of one kind. */
export const BatchRequestSchema = z.strictObject({
  items: z.array(BatchItemSchema).min(1).max(BATCH_MAX_ITEMS),
});

/**
 * The answer to one item, in the request's order: `status` is the HTTP status the single call
 * would have answered, and the rest its body (the object's envelope or the error envelope).
 * `replayed` is what `Idempotent-Replayed: true` says on a single create.
 */
export function batchResultSchema<T extends z.ZodType>(item: T) {
  const success = z.object({ status: z.int(), ok: z.literal(true), data: item, replayed: z.boolean().optional() });
  const failure = ErrorEnvelopeSchema.extend({ status: z.int() });
  return z.object({ ok: z.literal(true), data: z.object({ items: z.array(z.union([success, failure])) }) });
}
