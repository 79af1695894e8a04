import type { Executor } from "./sql/executor";

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
  async add(ownerId: string, ids: readonly string[]): Promise<void> {
    const insert = this.db.prepare(`INSERT INTO ${this.table} (${this.owner}, ${this.member}) VALUES (?, ?)`);
    for (const id of ids) await insert.run(ownerId, id);
  }

  /** Links `ownerId` to `ids` alone, in place of the links it had. */
  async replace(ownerId: string, ids: readonly string[]): Promise<void> {
    await this.db.prepare(`DELETE FROM ${this.table} WHERE ${this.owner} = ?`).run(ownerId);
    await this.add(ownerId, ids);
  }

  /** The ids `ownerId` links to, in order. */
  async of(ownerId: string): Promise<string[]> {
    const rows = (await this.db
      .prepare(`SELECT ${this.member} AS id FROM ${this.table} WHERE ${this.owner} = ? ORDER BY ${this.member}`)
      .all(ownerId)) as { id: string }[];
    return rows.map((r) => r.id);
  }
}
