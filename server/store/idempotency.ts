import { randomUUID } from "node:crypto";
import type { Executor } from "./sql/executor";
import type { SecretBox } from "../secrets";

/** How long a key's first answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a request under way holds its key at most, should its process live on without ending
 * it (longer than any request runs); a process that dies frees its keys at once.
 */
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
    const row = (await this.db
      .prepare(
        "SELECT fingerprint, status_code, response FROM idempotency_keys WHERE account_id = ? AND key = ? AND created_at > ? AND status_code > 0",
      )
      .get(accountId, key, now - IDEMPOTENCY_TTL_MS)) as
      { fingerprint: string; status_code: number; response: string } | undefined;
    return row
      ? { fingerprint: row.fingerprint, statusCode: row.status_code, body: this.secrets.open(row.response) }
      : undefined;
  }

  /**
   * Reserves `key` for a request under way, on whichever replica: the reservation's holder
   * token, or undefined while another request holds the key. A reservation is held while the
   * process that took it lives (`Executor.processToken`) and for at most RESERVATION_MS: one
   * left by a process that died is taken over at once. `save` turns the reservation into the
   * answer; `abandon` drops it when there is none.
   * `replaceAnswer`: a stored answer that can no longer be replayed is replaced.
   */
  async reserve(
    accountId: string,
    key: string,
    fingerprint: string,
    replaceAnswer = false,
    now = Date.now(),
  ): Promise<string | undefined> {
    const holder = randomUUID();
    const token = this.db.processToken;
    const result = await this.db
      .prepare(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, status_code, response, created_at, holder, process_token) VALUES (?, ?, ?, 0, ?, ?, ?, ?)
         ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status_code = 0, response = excluded.response,
           created_at = excluded.created_at, holder = excluded.holder, process_token = excluded.process_token
         WHERE (idempotency_keys.status_code = 0 AND (idempotency_keys.created_at <= ? OR ${this.db.dialect.processGone("idempotency_keys.process_token")}))
           OR idempotency_keys.created_at <= ? OR (? = 1 AND idempotency_keys.status_code > 0)`,
      )
      .run(
        accountId,
        key,
        fingerprint,
        this.secrets.seal(""),
        now,
        holder,
        token,
        now - RESERVATION_MS,
        token,
        now - IDEMPOTENCY_TTL_MS,
        replaceAnswer ? 1 : 0,
      );
    return result.changes === 1 ? holder : undefined;
  }

  /** Drops `holder`'s reservation, which got no answer to keep (the request failed before one). */
  async abandon(accountId: string, key: string, holder: string): Promise<void> {
    await this.db
      .prepare("DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND holder = ? AND status_code = 0")
      .run(accountId, key, holder);
  }

  /**
   * Keeps the answer of `holder`'s request: false when the reservation is no longer its (another
   * replica took it over, believing this process gone), and nothing is kept. Called in the
   * transaction that made the request's changes, a false there must undo them.
   */
  async save(
    accountId: string,
    key: string,
    holder: string,
    response: StoredResponse,
    now = Date.now(),
  ): Promise<boolean> {
    const result = await this.db
      .prepare(
        `UPDATE idempotency_keys SET fingerprint = ?, status_code = ?, response = ?, created_at = ?, holder = NULL, process_token = NULL
         WHERE account_id = ? AND key = ? AND holder = ? AND status_code = 0`,
      )
      .run(response.fingerprint, response.statusCode, this.secrets.seal(response.body), now, accountId, key, holder);
    return result.changes === 1;
  }

  /** Reseals answers not sealed under the current key. */
  async reseal(): Promise<number> {
    const rows = (await this.db.prepare("SELECT account_id, key, response FROM idempotency_keys").all()) as {
      account_id: string;
      key: string;
      response: string;
    }[];
    const update = this.db.prepare("UPDATE idempotency_keys SET response = ? WHERE account_id = ? AND key = ?");
    const stale = rows.filter((row) => !this.secrets.isCurrent(row.response));
    for (const row of stale)
      await update.run(this.secrets.seal(this.secrets.open(row.response)), row.account_id, row.key);
    return stale.length;
  }

  async prune(now = Date.now()): Promise<number> {
    return Number(
      await (
        await this.db.prepare("DELETE FROM idempotency_keys WHERE created_at <= ?").run(now - IDEMPOTENCY_TTL_MS)
      ).changes,
    );
  }
}
