import type { IdPrefix } from "./ids";
import { Links } from "./links";
import type { Executor, SqlValue } from "./sql/executor";
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

/**
 * A repository of objects an account owns that each link a set of the account's monitors (status
 * pages, maintenance windows): an object's row and its links are written together, the row's
 * columns as the repository derives them from a spec.
 */
export abstract class MonitorSetObjects<
  R extends { created_at: string; id: string },
  T,
  S extends { monitor_ids: readonly string[] },
> extends AccountObjects<R, T> {
  /** Each object's monitors. */
  protected readonly monitors: Links;

  /**
   * @param table the objects' table
   * @param prefix the prefix of their ids
   * @param links the link table and its column naming an object
   */
  constructor(
    db: Executor,
    table: "status_pages" | "maintenance_windows",
    private readonly prefix: IdPrefix,
    links: { table: string; column: string },
  ) {
    super(db, table);
    this.monitors = new Links(db, {
      table: links.table,
      owner: { table, column: links.column },
      member: { table: "monitors", column: "monitor_id" },
    });
  }

  /** The columns a spec sets, besides the object's mark. */
  protected abstract columns(spec: S): Record<string, SqlValue>;

  /** Columns a spec may leave undefined: kept as they are on update, null at create. */
  protected kept(_spec: S): Record<string, SqlValue | undefined> {
    return {};
  }

  /** The ids among `ids` that are monitors of the account. */
  async existingMonitors(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    return await this.monitors.existing(accountId, ids);
  }

  /** Stores a new object: its row and its monitor links, in one transaction. */
  async create(accountId: string, spec: S, externalId: string | null = null): Promise<T> {
    const kept = Object.entries(this.kept(spec)).map(([column, value]): [string, SqlValue] => [column, value ?? null]);
    const row = { ...this.columns(spec), external_id: externalId, ...Object.fromEntries(kept) };
    const id = await this.monitors.create(this.prefix, accountId, row, spec.monitor_ids);
    return (await this.get(accountId, id)) as T;
  }

  /** Stores a new spec; `externalId` undefined keeps the mark, null clears it. Undefined when there is no such object. */
  async update(accountId: string, id: string, spec: S, externalId?: string | null): Promise<T | undefined> {
    const kept = { external_id: externalId, ...this.kept(spec) };
    const changed = await this.monitors.update(id, accountId, this.columns(spec), kept, spec.monitor_ids);
    return changed ? await this.get(accountId, id) : undefined;
  }
}
