import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors";
import type { Store } from "../store";
import type { StoredResponse } from "../store/idempotency";
import { replayable } from "./replay";

const HEADER = "idempotency-key";
const KEY = /^[\x21-\x7e]{1,255}$/;

interface Pending {
  slot: string;
  fingerprint: string;
}

declare module "fastify" {
  interface FastifyRequest {
    idempotency?: Pending;
  }
}

/**
 * `Idempotency-Key` on any authenticated POST: the same key with the same request within 24 h
 * gets the first answer again (marked `Idempotent-Replayed: true`) while the object it created
 * exists; once that object is deleted the request runs again. With a different request, a 409.
 * Only successful answers are kept.
 * A second request with a key whose first is still running is a 409 too, never a duplicate.
 * The hooks are added to POST routes only (register this before the routes): other methods pay
 * nothing for it.
 */
export function registerIdempotency(app: FastifyInstance): void {
  const before = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[HEADER];
    if (request.method !== "POST" || key === undefined || !request.principal) return;
    if (typeof key !== "string" || !KEY.test(key)) {
      throw new ApiError("validation_failed", "Idempotency-Key must be 1 to 255 visible ASCII characters", [
        { field: "Idempotency-Key", message: "must be 1 to 255 visible ASCII characters" },
      ]);
    }
    const fingerprint = fingerprintOf(app.store, request.method, request.url, request.body);
    const claim = await claimKey(app.store, request.principal.accountId, key, fingerprint);
    if ("replay" in claim) {
      reply.header("idempotent-replayed", "true").header("content-type", "application/json; charset=utf-8");
      return reply.code(claim.replay.statusCode).send(claim.replay.body);
    }
    request.idempotency = { slot: claim.slot, fingerprint };
  };

  const keep = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const pending = request.idempotency;
    if (!pending || !request.principal) return payload;
    // Only successes are kept: a refused request changed nothing, so its retry runs again (a
    // deterministic key must not pin a 403 or 409 that the user has since resolved).
    if (reply.statusCode < 400 && typeof payload === "string") {
      const key = request.headers[HEADER] as string;
      await app.store.idempotency.save(request.principal.accountId, key, {
        fingerprint: pending.fingerprint,
        statusCode: reply.statusCode,
        body: payload,
      });
    }
    return payload;
  };

  const done = async (request: FastifyRequest) => {
    if (request.idempotency) await releaseKey(app.store, request.idempotency.slot);
  };

  app.addHook("onRoute", (route) => {
    if (![route.method].flat().includes("POST")) return;
    route.preHandler = withHook(route.preHandler, before);
    route.onSend = withHook(route.onSend, keep);
    route.onResponse = withHook(route.onResponse, done);
  });
}

/** A route's hooks of one kind, with `hook` added last. */
function withHook<T>(existing: T | T[] | undefined, hook: unknown): T[] {
  return [...(existing === undefined ? [] : [existing].flat()), hook] as T[];
}


const inFlightByStore = new WeakMap<Store, Set<string>>();

/**
 * Takes `key` for one request of `fingerprint`: the stored answer to replay, or the slot to
 * release when the request ends. Throws the 409s of a key used with another request or still in
 * progress. Shared by the header on single POSTs and the keys of batch items.
 */
export async function claimKey(store: Store, accountId: string, key: string, fingerprint: string): Promise<{ replay: StoredResponse } | { slot: string }> {
  let inFlight = inFlightByStore.get(store);
  if (!inFlight) inFlightByStore.set(store, (inFlight = new Set()));
  const slot = `${accountId}\n${key}`;
  if (inFlight.has(slot)) throw stillInProgress();
  // Taken before the stored answer is read: a request that ends while this one reads is seen.
  inFlight.add(slot);
  try {
    const stored = await store.idempotency.find(accountId, key);
    if (stored && stored.fingerprint !== fingerprint) {
      throw new ApiError("conflict", "Idempotency-Key was already used with a different request");
    }
    if (stored && (await replayable(store, accountId, stored))) {
      inFlight.delete(slot);
      return { replay: stored };
    }
    // Another replica may be running a request with this key: the database holds the key for one.
    if (!(await store.idempotency.reserve(accountId, key, fingerprint, stored !== undefined))) throw stillInProgress();
  } catch (err) {
    inFlight.delete(slot);
    throw err;
  }
  return { slot };
}

function stillInProgress(): ApiError {
  return new ApiError("conflict", "A request with this Idempotency-Key is still in progress", [
    { field: "Idempotency-Key", message: "is still in progress; retry shortly" },
  ]);
}

/** Ends what `claimKey` started: the key is free again here, and its reservation dropped if no answer was kept. */
export async function releaseKey(store: Store, slot: string): Promise<void> {
  inFlightByStore.get(store)?.delete(slot);
  const [accountId = "", key = ""] = slot.split("\n");
  await store.idempotency.abandon(accountId, key);
}

/**
 * What a key is bound to: the method, URL and validated body. An HMAC under the server key: the
 * stored fingerprint cannot be used to test guesses of a body.
 */
export function fingerprintOf(store: Store, method: string, url: string, body: unknown): string {
  return store.secrets.mac(`${method} ${url}\n${JSON.stringify(body ?? null)}`);
}
