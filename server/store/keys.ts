import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Executor } from "./sql/executor";
import type { ExternalCommits } from "./sql/database";
import { newId, nowIso } from "./ids";

const LOOKUP_LENGTH = 8;

/** An API key as `keys list` shows it: never the key itself. */
export interface KeyInfo {
  id: string;
  account: string;
  name: string | null;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  /** `manage` (the API) or `agent` (a checker agent of `location`: the agent API only). */
  scope: KeyScope;
  location: string | null;
}

/** What a key may do: `manage` the account's objects, or run checks as an `agent` of one location. */
export type KeyScope = "manage" | "agent";

/** The account an accepted key belongs to. */
export interface Principal {
  accountId: string;
  keyId: string;
  monitorLimit: number | null;
  scope: KeyScope;
  /** An agent key's location; null for management keys. */
  location: string | null;
}

const hash = (key: string) => createHash("sha256").update(key).digest();

/** Longest time a cached verification is trusted without looking at the database again. */
export const KEY_CACHE_TTL_MS = 60_000;
/** Verified keys kept in memory at most; past it the cache starts over. */
const KEY_CACHE_MAX = 10_000;

/**
 * Accounts and their API keys. A key is `uk_` + 32 random bytes (base64url); only its SHA-256 is
 * stored, found by its first characters and compared in constant time.
 */
export class KeyRepository {
  /**
   * Verified keys (key → principal). A key revoked by `keys revoke` in another process is refused
   * on the next request: any commit by another connection changes SQLite's `data_version`, which
   * empties the cache; revocations in this process empty it directly. The TTL bounds the rest.
   */
  private readonly cache = new Map<string, { principal: Principal; expires: number }>();

  constructor(
    private readonly db: Executor,
    private readonly commits: ExternalCommits,
  ) {
    commits.subscribe(["api_keys", "accounts"], () => this.cache.clear());
  }

  /** Creates a key for `account` (creating the account on first use); returns the key, once. */
  async create(
    account: string,
    name: string | null,
    key = `uk_${randomBytes(32).toString("base64url")}`,
    agentLocation: string | null = null,
  ): Promise<{ key: string; info: KeyInfo }> {
    const id = newId("key");
    await this.db.transaction(async () => {
      const accountId = await this.ensureAccount(account);
      await this.db
        .prepare(
          "INSERT INTO api_keys (id, account_id, name, lookup, hash, created_at, scope, location) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(
          id,
          accountId,
          name,
          lookup(key),
          hash(key),
          nowIso(),
          agentLocation === null ? "manage" : "agent",
          agentLocation,
        );
    });
    return { key, info: (await this.list()).find((k) => k.id === id) as KeyInfo };
  }

  /** Accepts a presented key: the principal, or undefined for an unknown or revoked key. */
  async authenticate(key: string, now = Date.now()): Promise<Principal | undefined> {
    await this.commits.check();
    const cached = this.cache.get(key);
    if (cached && cached.expires > now) return cached.principal;
    const principal = await this.verify(key);
    if (principal) {
      if (this.cache.size >= KEY_CACHE_MAX) this.cache.clear();
      this.cache.set(key, { principal, expires: now + KEY_CACHE_TTL_MS });
    } else this.cache.delete(key);
    return principal;
  }

  private async verify(key: string): Promise<Principal | undefined> {
    if (!key.startsWith("uk_") || key.length < 3 + LOOKUP_LENGTH) return undefined;
    const row = (await this.db
      .prepare(
        `SELECT k.id, k.hash, k.account_id, k.scope, k.location, a.monitor_limit FROM api_keys k JOIN accounts a ON a.id = k.account_id
         WHERE k.lookup = ? AND k.revoked_at IS NULL`,
      )
      .get(lookup(key))) as
      | {
          id: string;
          hash: Uint8Array;
          account_id: string;
          monitor_limit: number | null;
          scope: KeyScope;
          location: string | null;
        }
      | undefined;
    if (!row || !timingSafeEqual(Buffer.from(row.hash), hash(key))) return undefined;
    return {
      accountId: row.account_id,
      keyId: row.id,
      monitorLimit: row.monitor_limit,
      scope: row.scope,
      location: row.location,
    };
  }

  async list(account?: string): Promise<KeyInfo[]> {
    const rows = (await this.db
      .prepare(
        `SELECT k.id, a.name AS account, k.name, k.lookup, k.created_at, k.revoked_at, k.scope, k.location FROM api_keys k
         JOIN accounts a ON a.id = k.account_id WHERE CAST(? AS TEXT) IS NULL OR a.name = ? ORDER BY k.created_at, k.id`,
      )
      .all(account ?? null, account ?? null)) as unknown as (Omit<KeyInfo, "prefix"> & { lookup: string })[];
    return rows.map(({ lookup: l, ...rest }) => ({ ...rest, prefix: `uk_${l}…` }));
  }

  /** The locations the account's active agent keys serve, sorted. */
  async agentLocations(accountId: string): Promise<string[]> {
    const rows = (await this.db
      .prepare(
        "SELECT DISTINCT location FROM api_keys WHERE account_id = ? AND scope = 'agent' AND revoked_at IS NULL ORDER BY location",
      )
      .all(accountId)) as { location: string }[];
    return rows.map((r) => r.location);
  }

  /** Revokes a key by id; false when there is no such active key. */
  async revoke(id: string): Promise<boolean> {
    this.cache.clear();
    return (
      (await (
        await this.db
          .prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
          .run(nowIso(), id)
      ).changes) > 0
    );
  }

  /** Sets an account's own monitor limit (null: the server's default). */
  async setMonitorLimit(account: string, limit: number | null): Promise<void> {
    this.cache.clear();
    await this.ensureAccount(account);
    await this.db.prepare("UPDATE accounts SET monitor_limit = ? WHERE name = ?").run(limit, account);
  }

  private async ensureAccount(name: string): Promise<string> {
    const existing = (await this.db.prepare("SELECT id FROM accounts WHERE name = ?").get(name)) as
      { id: string } | undefined;
    if (existing) return existing.id;
    const id = newId("acc");
    await this.db.prepare("INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)").run(id, name, nowIso());
    return id;
  }
}

function lookup(key: string): string {
  return key.slice(3, 3 + LOOKUP_LENGTH);
}
