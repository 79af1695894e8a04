import type { FastifyInstance } from "fastify";
import { claimKey, fingerprintOf, keepAnswer, releaseKey } from "./idempotency";

/** A kept or replayed answer: its status and its body (`replayed` on a replay). */
export type KeyedAnswer = { status: number; [field: string]: unknown };

/**
 * A create under an idempotency key, replayed or kept exactly as `POST <path>` with the
 * `Idempotency-Key` header would be: what batch items with an `idempotency_key` run through.
 */
export async function keyedCreate(
  app: FastifyInstance,
  accountId: string,
  key: string,
  path: string,
  body: unknown,
  create: () => Promise<unknown>,
): Promise<KeyedAnswer> {
  const { store } = app;
  const fingerprint = fingerprintOf(store, "POST", path, body);
  const claim = await claimKey(store, accountId, key, fingerprint);
  if ("replay" in claim)
    return { status: claim.replay.statusCode, ...(JSON.parse(claim.replay.body) as object), replayed: true };
  try {
    // The object and its kept answer commit together: a retry after a crash replays it or runs once.
    return await store.db.transaction(async () => {
      const answer = { ok: true as const, data: await create() };
      await keepAnswer(store, claim, { fingerprint, statusCode: 201, body: JSON.stringify(answer) });
      return { status: 201, ...answer };
    });
  } finally {
    await releaseKey(store, claim);
  }
}
