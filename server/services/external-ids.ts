import { ApiError } from "../errors";
import type { Store } from "../store";
import type { MarkedTable } from "../store/external-ids";

const LABEL: Record<MarkedTable, string> = {
  monitors: "monitor",
  channels: "channel",
  status_pages: "status page",
  maintenance_windows: "maintenance window",
};

/**
 * A 409 `conflict` when another object of this kind in the account already carries `externalId`
 * (`exceptId`: the object being updated). The message names the holder, so a client that lost
 * the answer to its create can take that object over.
 */
export async function assertExternalIdFree(
  store: Store,
  table: MarkedTable,
  accountId: string,
  externalId: string | null | undefined,
  exceptId?: string,
): Promise<void> {
  if (externalId === undefined || externalId === null) return;
  const owner = await store.externalIds.owner(table, accountId, externalId);
  if (owner === undefined || owner === exceptId) return;
  throw new ApiError("conflict", `external_id is already used by ${LABEL[table]} ${owner}`, [
    { field: "external_id", message: `is already used by ${LABEL[table]} ${owner}` },
  ]);
}
