import type { Executor } from "./executor";
import type { SecretBox } from "../secrets";

/** How long a key's first answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** A remembered answer to a POST with an `Idempotency-Key`. */
export interface StoredResponse {
  fingerprint: string;
  statusCode: number;
  body: string;
}

/**
 * First answers of POSTs sent with an `Idempotency-Key`, per account, for 24 hours. Answers may
 * carry secrets (a monitor's headers), so they are stored sealed; the request is kept only as
 * the caller's fingerprint (an HMAC), never its body.
 */
export class IdempotencyRepository {
  constructor(
    private readonly db: Executor,
    private readonly secrets: SecretBox,
  ) {}

  async find(accountId: string, key: string, now = Date.now()): Promise<StoredResponse | undefined> {
    const row = await this.db
      .prepare(
        "SELECT fingerprint, status_code, response FROM idempotency_keys WHERE account_id = ? AND key = ? AND created_at > ?",
      )
      .get(accountId, key, now - IDEMPOTENCY_TTL_MS) as
      | { fingerprint: string; status_code: number; response: string }
      | undefined;
    return row
      ? { fingerprint: row.fingerprint, statusCode: row.status_code, body: this.secrets.open(row.response) }
      : undefined;
  }

  async save(accountId: string, key: string, response: StoredResponse, now = Date.now()): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, response, created_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status_code = excluded.status_code,
         response = excluded.response, created_at = excluded.created_at`,
      )
      .run(accountId, key, response.fingerprint, response.statusCode, this.secrets.seal(response.body), now);
  }

  /** Reseals answers not sealed under the current key. */
  async reseal(): Promise<number> {
    const rows = await this.db.prepare("SELECT account_id, key, response FROM idempotency_keys").all() as { account_id: string; key: string; response: string }[];
    const update = this.db.prepare("UPDATE idempotency_keys SET response = ? WHERE account_id = ? AND key = ?");
    const stale = rows.filter((row) => !this.secrets.isCurrent(row.response));
    for (const row of stale) await update.run(this.secrets.seal(this.secrets.open(row.response)), row.account_id, row.key);
    return stale.length;
  }

  async prune(now = Date.now()): Promise<number> {
    return Number(
      await (await this.db.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?").run(now - IDEMPOTENCY_TTL_MS))
        .changes,
    );
  }
}
