import type { Executor } from "./sql/executor";

/** An agent as the server last heard from it. */
export interface AgentRow {
  id: string;
  account_id: string;
  key_id: string;
  location: string;
  first_seen_at: number;
  last_seen_at: number;
  /** Whether the agent may reach private addresses (`--allow-private-targets`): 1, 0, or null before it said. */
  allow_private_targets: number | null;
  /** Whether the agent's machine can run browser checks: 1, 0, or null before it said. */
  browser?: number | null;
}

/** Checker agents and their last contact (one row per agent process, by the id it sends). */
export class AgentRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Records that agent `id` (of `location`, with key `keyId`) was in contact at `at`, and its
   * outbound policy when it told (undefined keeps what it said before).
   */
  async touch(
    id: string,
    accountId: string,
    keyId: string,
    location: string,
    at: number,
    allowPrivate?: boolean,
    browser?: boolean,
  ): Promise<void> {
    const policy = allowPrivate === undefined ? null : Number(allowPrivate);
    const canBrowse = browser === undefined ? null : Number(browser);
    await this.db
      .prepare(
        `INSERT INTO agents (id, account_id, key_id, location, first_seen_at, last_seen_at, allow_private_targets, browser) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at, location = excluded.location, key_id = excluded.key_id,
           allow_private_targets = COALESCE(excluded.allow_private_targets, agents.allow_private_targets),
           browser = COALESCE(excluded.browser, agents.browser)
         WHERE agents.account_id = excluded.account_id`,
      )
      .run(id, accountId, keyId, location, at, at, policy, canBrowse);
  }

  /** The account's agents, by location then last contact (newest first). */
  async list(accountId: string): Promise<AgentRow[]> {
    return (await this.db
      .prepare("SELECT * FROM agents WHERE account_id = ? ORDER BY location, last_seen_at DESC, id")
      .all(accountId)) as unknown as AgentRow[];
  }

  /** Forgets agents not heard from since `cutoff`. */
  async prune(cutoff: number): Promise<void> {
    await this.db.prepare("DELETE FROM agents WHERE last_seen_at < ?").run(cutoff);
  }
}
