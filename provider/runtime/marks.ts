/**
 * Creating with a mark: the pieces of a create that survives an interrupted deployment (see
 * identity.ts). The runtime posts with the mark and the deterministic key, and takes over the
 * object a replay or a taken mark points at.
 */
import type { UptimeClient } from "../client/client";
import { hasCode } from "../client/errors";
import { createKey, IDENTITY_INPUT, markOf, type ResourceIdentity } from "./identity";
import type { Props } from "../kinds/values";

/** The identity the resource class passed, if any (resources made by older versions have none). */
export function identityOf(inputs: Props): ResourceIdentity | undefined {
  const identity = inputs[IDENTITY_INPUT] as ResourceIdentity | undefined;
  return identity && typeof identity === "object" && typeof identity.name === "string" ? identity : undefined;
}

/** The resource's name for messages: its Pulumi name when known, else its display name. */
export function resourceName(inputs: Props, id?: string): string {
  return identityOf(inputs)?.name ?? String(inputs.name ?? inputs.slug ?? id ?? "?");
}

/** What a create sends: the body (with `external_id` where the service has it) and the key. */
export function markedCreate(
  inputs: Props,
  body: object,
  apiKey: string,
  serviceHasMarks: boolean,
): { mark?: string; body: object; idempotencyKey?: string } {
  const identity = identityOf(inputs);
  if (!identity) return { body };
  const mark = markOf(identity);
  const sent = serviceHasMarks ? { ...body, external_id: mark } : body;
  return { mark: serviceHasMarks ? mark : undefined, body: sent, idempotencyKey: createKey(apiKey, mark, sent) };
}

/** A 409 because another object already carries this `external_id`. */
export function markTaken(err: unknown): boolean {
  return (
    hasCode(err, "conflict") &&
    (err as { details?: { field?: string }[] }).details?.some((d) => d.field === "external_id") === true
  );
}

/** The account's object of the collection that carries the mark. */
export async function findByMark(
  client: UptimeClient,
  path: string,
  mark: string,
): Promise<{ id: string } | undefined> {
  const all = await client.listAll<{ id: string; external_id?: string | null }>(path);
  return all.find((o) => o.external_id === mark);
}
