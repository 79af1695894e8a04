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
 * connection's own. The in-memory caches of the store subscribe and are emptied when it changes;
 * every authenticated request looks, so no request is answered from what another process replaced.
 */
export class ExternalCommits {
  private version: number | undefined = -1;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly db: Executor) {}

  /** `listener` runs whenever another connection has committed since the last look. */
  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Empties the subscribers' caches now (another process told us it committed). */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Looks (one query), and empties the subscribers' caches if another connection committed. */
  async check(): Promise<void> {
    const version = await this.db.externalVersion();
    if (version === undefined || version === this.version) return;
    this.version = version;
    this.changed();
  }
}
