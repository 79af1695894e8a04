import type { Executor } from "./sql/executor";
import type { SecretBox } from "../secrets";

/** How long a key's first answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** How long a request under way holds its key on every replica (longer than any request runs). */
const RESERVATION_MS = 120_000;

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
        "SELECT fingerprint, status_code, response FROM idempotency_keys WHERE account_id = ? AND key = ? AND created_at > ? AND status_code > 0",
      )
      .get(accountId, key, now - IDEMPOTENCY_TTL_MS) as
      | { fingerprint: string; status_code: number; response: string }
      | undefined;
    return row
      ? { fingerprint: row.fingerprint, statusCode: row.status_code, body: this.secrets.open(row.response) }
      : undefined;
  }

  /**
   * Reserves `key` for a request under way, on whichever replica: false while another request
   * holds it (a reservation younger than RESERVATION_MS; an older one was left by a dead replica).
   * `save` turns the reservation into the answer; `abandon` drops it when there is none.
   * `replaceAnswer`: a stored answer that can no longer be replayed is replaced.
   */
  async reserve(accountId: string, key: string, fingerprint: string, replaceAnswer = false, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .prepare(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, response, created_at) VALUES (?, ?, ?, 0, ?, ?)
         ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status_code = 0, response = excluded.response, created_at = excluded.created_at
         WHERE (idempotency_keys.status_code = 0 AND idempotency_keys.created_at <= ?) OR idempotency_keys.created_at <= ?
           OR (? = 1 AND idempotency_keys.status_code > 0)`,
      )
      .run(accountId, key, fingerprint, this.secrets.seal(""), now, now - RESERVATION_MS, now - IDEMPOTENCY_TTL_MS, replaceAnswer ? 1 : 0);
    return result.changes === 1;
  }

  /** Drops a reservation that got no answer to keep (the request failed before one). */
  async abandon(accountId: string, key: string): Promise<void> {
    await this.db.prepare("DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND status_code = 0").run(accountId, key);
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
