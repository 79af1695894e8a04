import type { Executor, RunResult } from "./sql/executor";

/**
 * A table that links each object of one kind to objects of another (a monitor's channels, a
 * status page's monitors, a maintenance window's monitors): written with the object, in the
 * transaction that writes it.
 */
export class Links {
  /**
   * @param table the link table
   * @param owner its column naming the object the links belong to
   * @param member its column naming the object linked to
   */
  constructor(
    private readonly db: Executor,
    private readonly table: string,
    private readonly owner: string,
    private readonly member: string,
  ) {}

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

  /** Inserts the owner's row with `insert` and links it to each of `ids`, in one transaction. */
  async insertWith(ownerId: string, ids: readonly string[], insert: () => Promise<RunResult>): Promise<void> {
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
  async updateWith(ownerId: string, ids: readonly string[], update: () => Promise<RunResult>): Promise<boolean> {
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
