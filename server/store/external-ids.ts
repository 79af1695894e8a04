import type { Executor } from "./sql/executor";

/** The tables whose objects carry an `external_id`. */
export type MarkedTable = "monitors" | "channels" | "status_pages" | "maintenance_windows";

/** Look-ups of `external_id`, the client's mark on monitors, channels, status pages and maintenance windows. */
export class ExternalIdRepository {
  constructor(private readonly db: Executor) {}

  /** The id of the account's object in `table` that carries `externalId`, if any. */
  async owner(table: MarkedTable, accountId: string, externalId: string): Promise<string | undefined> {
    const row = (await this.db
      .prepare(`SELECT id FROM ${table} WHERE account_id = ? AND external_id = ?`)
      .get(accountId, externalId)) as { id: string } | undefined;
    return row?.id;
  }

  /** Whether the account still has the object `id` (any of the marked kinds, by its prefix). */
  async exists(accountId: string, id: string): Promise<boolean> {
    const table = tableOfId(id);
    if (!table) return false;
    return (
      (await this.db.prepare(`SELECT 1 FROM ${table} WHERE id = ? AND account_id = ?`).get(id, accountId)) !== undefined
    );
  }
}

/** `mon_…` → monitors, `chn_…` → channels, `sp_…` → status_pages, `mw_…` → maintenance_windows. */
export function tableOfId(id: string): MarkedTable | undefined {
  if (id.startsWith("mon_")) return "monitors";
  if (id.startsWith("chn_")) return "channels";
  if (id.startsWith("sp_")) return "status_pages";
  if (id.startsWith("mw_")) return "maintenance_windows";
  return undefined;
}
