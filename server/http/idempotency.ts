import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../errors";
import type { Store } from "../store";
import type { StoredResponse } from "../store/idempotency";
import { replayable } from "./replay";

const HEADER = "idempotency-key";
const KEY = /^[\x21-\x7e]{1,255}$/;

/** A key held by one request: released when the request ends. */
export interface Claim {
  accountId: string;
  key: string;
  /** The reservation's token in the database (see IdempotencyRepository.reserve). */
  holder: string;
}

interface Pending extends Claim {
  fingerprint: string;
  /** The answer was kept in the transaction that made the request's changes (a create). */
  kept: boolean;
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
 * A second request with a key whose first is still running is a 409 too, never a duplicate; a
 * first request whose process died holds the key no longer.
 * A create (a POST that answers 201) runs in one transaction with the keeping of its answer:
 * the object exists with its answer or not at all, so a retry after a crash replays it or runs
 * it once. Other POSTs keep their answer once it is sent.
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
    request.idempotency = { ...claim, fingerprint, kept: false };
  };

  const keep = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const pending = request.idempotency;
    if (!pending || pending.kept) return payload;
    // Only successes are kept: a refused request changed nothing, so its retry runs again (a
    // deterministic key must not pin a 403 or 409 that the user has since resolved).
    if (reply.statusCode < 400 && typeof payload === "string") {
      // A reservation taken over meanwhile is the other request's to answer: nothing is kept.
      await app.store.idempotency.save(pending.accountId, pending.key, pending.holder, {
        fingerprint: pending.fingerprint,
        statusCode: reply.statusCode,
        body: payload,
      });
    }
    return payload;
  };

  const done = async (request: FastifyRequest) => {
    if (request.idempotency) await releaseKey(app.store, request.idempotency);
  };

  app.addHook("onRoute", (route) => {
    if (![route.method].flat().includes("POST")) return;
    route.preHandler = withHook(route.preHandler, before);
    route.onSend = withHook(route.onSend, keep);
    route.onResponse = withHook(route.onResponse, done);
    if (answersCreated(route.schema)) route.handler = keptWithChanges(app, route.handler as Handler);
  });
}

type Handler = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown;

/** Whether a route creates: its documented answers include a 201. */
function answersCreated(schema: { response?: unknown } | undefined): boolean {
  return typeof schema?.response === "object" && schema.response !== null && "201" in schema.response;
}

/**
 * A create's handler whose keyed requests run in one transaction with the keeping of their
 * answer. The handler must return its answer (not send it): it is serialized and kept before
 * the commit.
 */
function keptWithChanges(app: FastifyInstance, handler: Handler): Handler {
  return async function (request, reply) {
    const pending = request.idempotency;
    if (!pending) return await handler.call(this, request, reply);
    return await app.store.db.transaction(async () => {
      const answer = await handler.call(this, request, reply);
      if (answer === reply || reply.sent)
        throw new Error(
          `${request.routeOptions.url}: a create must return its answer for it to be kept with its changes`,
        );
      await keepAnswer(app.store, pending, {
        fingerprint: pending.fingerprint,
        statusCode: reply.statusCode,
        body: String(reply.serialize(answer)),
      });
      pending.kept = true;
      return answer;
    });
  };
}

/**
 * Keeps `claim`'s answer; call it in the transaction that made the request's changes. A claim
 * taken over by another request (this process was believed gone) keeps nothing and throws the
 * 409 of a key in progress, which undoes those changes: the other request's answer is the one
 * a retry gets.
 */
export async function keepAnswer(store: Store, claim: Claim, response: StoredResponse): Promise<void> {
  if (!(await store.idempotency.save(claim.accountId, claim.key, claim.holder, response))) throw stillInProgress();
}

/** Route hooks of one kind, with `hook` added last. */
function withHook<T>(existing: T | T[] | undefined, hook: unknown): T[] {
  return [...(existing === undefined ? [] : [existing].flat()), hook] as T[];
}

const inFlightByStore = new WeakMap<Store, Set<string>>();
const slotOf = (accountId: string, key: string) => `${accountId}\n${key}`;

/**
 * Takes `key` for one request of `fingerprint`: the stored answer to replay, or the claim to
 * release when the request ends. Throws the 409s of a key used with another request or still in
 * progress. Shared by the header on single POSTs and the keys of batch items.
 */
export async function claimKey(
  store: Store,
  accountId: string,
  key: string,
  fingerprint: string,
): Promise<{ replay: StoredResponse } | Claim> {
  let inFlight = inFlightByStore.get(store);
  if (!inFlight) inFlightByStore.set(store, (inFlight = new Set()));
  const slot = slotOf(accountId, key);
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
    const holder = await store.idempotency.reserve(accountId, key, fingerprint, stored !== undefined);
    if (holder === undefined) throw stillInProgress();
    return { accountId, key, holder };
  } catch (err) {
    inFlight.delete(slot);
    throw err;
  }
}

function stillInProgress(): ApiError {
  return new ApiError("conflict", "A request with this Idempotency-Key is still in progress", [
    { field: "Idempotency-Key", message: "is still in progress; retry shortly" },
  ]);
}

/** Ends what `claimKey` started: the key is free again here, and its reservation dropped if no answer was kept. */
export async function releaseKey(store: Store, claim: Claim): Promise<void> {
  inFlightByStore.get(store)?.delete(slotOf(claim.accountId, claim.key));
  await store.idempotency.abandon(claim.accountId, claim.key, claim.holder);
}

/**
 * What a key is bound to: the method, URL and validated body. An HMAC under the server key: the
 * stored fingerprint cannot be used to test guesses of a body.
 */
export function fingerprintOf(store: Store, method: string, url: string, body: unknown): string {
  return store.secrets.mac(`${method} ${url}\n${JSON.stringify(body ?? null)}`);
}
