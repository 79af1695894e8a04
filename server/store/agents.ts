import type { DatabaseSync } from "node:sqlite";

/** An agent as the server last heard from it. */
export interface AgentRow {
  id: string;
  account_id: string;
  key_id: string;
  location: string;
  first_seen_at: number;
  last_seen_at: number;
}

/** Checker agents and their last contact (one row per agent process, by the id it sends). */
export class AgentRepository {
  constructor(private readonly db: DatabaseSync) {}

  /** Records that agent `id` (of `location`, with key `keyId`) was in contact at `at`. */
  touch(id: string, accountId: string, keyId: string, location: string, at: number): void {
    this.db
      .prepare(
        `INSERT INTO agents (id, account_id, key_id, location, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at, location = excluded.location, key_id = excluded.key_id
         WHERE agents.account_id = excluded.account_id`,
      )
      .run(id, accountId, keyId, location, at, at);
  }

  /** The account's agents, by location then last contact (newest first). */
  list(accountId: string): AgentRow[] {
    return this.db
      .prepare("SELECT * FROM agents WHERE account_id = ? ORDER BY location, last_seen_at DESC, id")
      .all(accountId) as unknown as AgentRow[];
  }

  /** Forgets agents not heard from since `cutoff`. */
  prune(cutoff: number): void {
    this.db.prepare("DELETE FROM agents WHERE last_seen_at < ?").run(cutoff);
  }
}
