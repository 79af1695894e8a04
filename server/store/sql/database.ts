import type { Executor } from "./executor";

/** The last migration applied to the database (0 for none). */
export async function schemaVersion(db: Executor): Promise<number> {
  const row = (await db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get()) as { v: number | null };
  return row.v ?? 0;
}

/** The ids among `ids` that are rows of `table` owned by the account (reference checks). */
export async function ownedIds(
  db: Executor,
  table: "channels" | "monitors",
  accountId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = (await db
    .prepare(`SELECT id FROM ${table} WHERE account_id = ? AND id IN (${ids.map(() => "?").join(",")})`)
    .all(accountId, ...ids)) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/**
 * Commits by other connections to the same database (another server process, a `keys revoke`
 * command): the engine's external version changes with each of them, never with this
 * connection's own. The in-memory caches of the store subscribe, each for the tables it holds,
 * and are emptied when another connection wrote to one of them; every authenticated request
 * looks, so no request is answered from what another process replaced.
 */
export class ExternalCommits {
  private readonly subscribers: {
    tables: readonly string[];
    listener: () => void;
    row?: (id: string, table: string) => void;
    version: number | undefined;
  }[] = [];
  /** The version of any commit at the last look. */
  private any: number | undefined = -1;

  constructor(private readonly db: Executor) {
    db.onExternalRows((table, ids) => {
      for (const s of this.subscribers) {
        if (!s.tables.includes(table)) continue;
        if (s.row) for (const id of ids) s.row(id, table);
        else s.listener();
      }
    });
  }

  /**
   * `listener` runs whenever another connection has committed a write to one of `tables` since
   * the last look. `row`, when given, runs instead for a commit that wrote only some rows of one
   * of them, as soon as it is announced (engines that announce rows: PostgreSQL), once per row,
   * with the table (for a table of `MONITOR_ROWS`, the id is the monitor's the rows belong to).
   */
  subscribe(tables: readonly string[], listener: () => void, row?: (id: string, table: string) => void): void {
    this.subscribers.push({ tables, listener, row, version: -1 });
  }

  /** Empties the subscribers' caches now (another process told us it committed). */
  changed(): void {
    for (const { listener } of this.subscribers) listener();
  }

  /** The look the callers of this event-loop turn wait for (it starts once the turn's callbacks ran). */
  private pending: Promise<void> | undefined;

  /**
   * Empties the caches of the subscribers whose tables another connection wrote to since the
   * caller asked. Where a look reads a file (SQLite's WAL index: a system call), callers of one
   * event-loop turn share one look, which starts after all of them asked (in the turn's check
   * phase), so each sees every commit that ended before it asked: under load the requests one
   * poll of the sockets brought in pay for one look, not one each. A caller after the look started
   * waits for the next. Where the version is in memory (PostgreSQL's announcements), each caller
   * looks at once: there is nothing to share, and the wait for the turn's end would only delay it.
   */
  check(): Promise<void> {
    if (this.db.externalVersionInMemory) return this.look();
    this.pending ??= new Promise((resolve, reject) =>
      setImmediate(() => {
        this.pending = undefined;
        this.look().then(resolve, reject);
      }),
    );
    return this.pending;
  }

  /** Looks, and empties the caches of the subscribers whose tables another connection wrote to. */
  private async look(): Promise<void> {
    // One look at any commit first: with none since the last, no table changed.
    const any = await this.db.externalVersion();
    if (any !== undefined && any === this.any) return;
    this.any = any;
    for (const subscriber of this.subscribers) {
      const version = await this.db.externalVersion(subscriber.tables);
      if (version === undefined || version === subscriber.version) continue;
      subscriber.version = version;
      subscriber.listener();
    }
  }
}
