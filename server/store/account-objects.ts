import type { Executor } from "./sql/executor";
import { afterCursor, type Page, toPage } from "./pagination";

/** The tables of objects an account lists, reads and deletes by id. */
export type AccountTable = "channels" | "status_pages" | "maintenance_windows";

/**
 * The reads and the delete of a repository of objects an account owns, one row of `table` each
 * (channels, status pages, maintenance windows): they differ only in how a row becomes an object.
 */
export abstract class AccountObjects<R extends { created_at: string; id: string }, T> {
  constructor(
    protected readonly db: Executor,
    private readonly table: AccountTable,
  ) {}

  /** The object a stored row stands for. */
  protected abstract item(row: R): T | Promise<T>;

  /** One page of the account's objects after `cursor`, in creation order. */
  async list(accountId: string, limit: number, cursor?: string): Promise<Page<T>> {
    const after = afterCursor(cursor);
    const rows = (await this.db
      .prepare(`SELECT * FROM ${this.table} WHERE account_id = ? AND ${after.sql} ORDER BY created_at, id LIMIT ?`)
      .all(accountId, ...after.params, limit + 1)) as unknown as R[];
    return await toPage(rows, limit, (kept) => Promise.all(kept.map(async (row) => await this.item(row))));
  }

  async get(accountId: string, id: string): Promise<T | undefined> {
    const row = await this.row(accountId, id);
    return row ? await this.item(row) : undefined;
  }

  /** Deletes the object (its links go with it); returns it as it was. */
  async delete(accountId: string, id: string): Promise<T | undefined> {
    const item = await this.get(accountId, id);
    if (item) await this.db.prepare(`DELETE FROM ${this.table} WHERE id = ? AND account_id = ?`).run(id, accountId);
    return item;
  }

  /** The account's row `id`, if it has it. */
  protected async row(accountId: string, id: string): Promise<R | undefined> {
    return (await this.db.prepare(`SELECT * FROM ${this.table} WHERE id = ? AND account_id = ?`).get(id, accountId)) as
      R | undefined;
  }
}
