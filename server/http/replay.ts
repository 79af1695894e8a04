import type { Store } from "../store";
import type { StoredResponse } from "../store/idempotency";

/** The id of the object a stored answer created: a 201 whose `data.id` is a monitor, channel or status page. */
function createdId(stored: StoredResponse): string | undefined {
  if (stored.statusCode !== 201) return undefined;
  try {
    const id = (JSON.parse(stored.body) as { data?: { id?: unknown } }).data?.id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a stored answer may be replayed: always, except an answer that created an object that
 * has since been deleted. Replaying that one would hand the client an id that no longer exists
 * (a `pulumi destroy` followed by `pulumi up` of the same program sends the same key), so the
 * key is released and the request runs again.
 */
export async function replayable(store: Store, accountId: string, stored: StoredResponse): Promise<boolean> {
  const id = createdId(stored);
  return id === undefined || (await store.externalIds.exists(accountId, id));
}
