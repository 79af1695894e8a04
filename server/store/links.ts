import { type IdPrefix, newId, nowIso } from "./ids";
import { ownedIds } from "./sql/database";
import type { Executor, RunResult, SqlValue } from "./sql/executor";
import { givenParams, keptUnlessGiven } from "./sql/kept-unless-given";

/** A table and one of its columns. */
interface Column {
  table: string;
  column: string;
}

/** Where the links live: the link table, the owners' table and column, the members' table and column. */
export interface LinkTables {
  /** The link table. */
  table: string;
  /** The objects the links belong to (`status_pages`), and the link table's column naming one (`status_page_id`). */
  owner: Column;
  /** The objects linked to (`monitors`), and the link table's column naming one (`monitor_id`). */
  member: Column & { table: "channels" | "monitors" };
}

/**
 * A table that links each object of one kind to objects of another (a monitor's channels, a
 * status page's monitors, a maintenance window's monitors): written with the object, in the
 * transaction that writes it.
 */
export class Links {
  private readonly table: string;
  private readonly owner: string;
  private readonly member: string;

  constructor(
    private readonly db: Executor,
    private readonly tables: LinkTables,
  ) {
    this.table = tables.table;
    this.owner = tables.owner.column;
    this.member = tables.member.column;
  }

  /** The ids among `ids` that are members' objects of the account (the references a create or an update checks). */
  async existing(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    return await ownedIds(this.db, this.tables.member.table, accountId, ids);
  }

  /**
   * Inserts a new owner (an id of `prefix`, the account, `columns` in order, created and updated now) and links it to
   * each of `ids`, in one transaction. Its id.
   */
  async create(
    prefix: IdPrefix,
    accountId: string,
    columns: Record<string, SqlValue>,
    ids: readonly string[],
  ): Promise<string> {
    const id = newId(prefix);
    const now = nowIso();
    const names = ["id", "account_id", ...Object.keys(columns), "created_at", "updated_at"];
    const sql = `INSERT INTO ${this.tables.owner.table} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
    await this.insertWith(id, ids, () => this.db.prepare(sql).run(id, accountId, ...Object.values(columns), now, now));
    return id;
  }

  /** Links `ownerId` to each of `ids`. */
  private async add(ownerId: string, ids: readonly string[]): Promise<void> {
    const insert = this.db.prepare(`INSERT INTO ${this.table} (${this.owner}, ${this.member}) VALUES (?, ?)`);
    for (const id of ids) await insert.run(ownerId, id);
  }

  /** Links `ownerId` to `ids` alone, in place of the links it had. */
  private async replace(ownerId: string, ids: readonly string[]): Promise<void> {
    await this.db.prepare(`DELETE FROM ${this.table} WHERE ${this.owner} = ?`).run(ownerId);
    await this.add(ownerId, ids);
  }

  /**
   * Updates the account's owner `ownerId` (`set`, the columns of `kept` that are not undefined, and its update time)
   * and links it to `ids` alone, in one transaction. Whether there was such an owner (if not, nothing is written).
   * @param kept columns a caller may leave as they are: undefined keeps the column, null clears it
   */
  async update(
    ownerId: string,
    accountId: string,
    set: Record<string, SqlValue>,
    kept: Record<string, SqlValue | undefined>,
    ids: readonly string[],
  ): Promise<boolean> {
    const assignments = [...Object.keys(set).map((c) => `${c} = ?`), ...Object.keys(kept).map(keptUnlessGiven)];
    const sql = `UPDATE ${this.tables.owner.table} SET ${assignments.join(", ")}, updated_at = ? WHERE id = ? AND account_id = ?`;
    const params = [...Object.values(set), ...Object.values(kept).flatMap(givenParams), nowIso(), ownerId, accountId];
    return await this.updateWith(ownerId, ids, () => this.db.prepare(sql).run(...params));
  }

  /** Inserts the owner's row with `insert` and links it to each of `ids`, in one transaction. */
  private async insertWith(ownerId: string, ids: readonly string[], insert: () => Promise<RunResult>): Promise<void> {
    await this.db.transaction(async () => {
      await insert();
      await this.add(ownerId, ids);
    });
  }

  /**
   * Updates the owner's row with `update` and links it to `ids` alone, in place of the links it
   * had, in one transaction; when `update` changed no row (no such owner), links nothing. Whether
   * it updated.
   */
  private async updateWith(
    ownerId: string,
    ids: readonly string[],
    update: () => Promise<RunResult>,
  ): Promise<boolean> {
    return await this.db.transaction(async () => {
      if ((await update()).changes === 0) return false;
      await this.replace(ownerId, ids);
      return true;
    });
  }

  /** The ids `ownerId` links to, in order. */
  async of(ownerId: string): Promise<string[]> {
    const rows = (await this.db
      .prepare(`SELECT ${this.member} AS id FROM ${this.table} WHERE ${this.owner} = ? ORDER BY ${this.member}`)
      .all(ownerId)) as { id: string }[];
    return rows.map((r) => r.id);
  }
}
