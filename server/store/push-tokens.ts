import { createHash, randomBytes } from "node:crypto";
import type { Executor } from "./sql/executor";
import { nowIso } from "./ids";

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Push tokens of heartbeat monitors. Only a SHA-256 digest is stored, so the database never
 * holds a usable push URL; the token itself is returned once, when issued.
 */
export class PushTokenRepository {
  constructor(private readonly db: Executor) {}

  /** Issues (or replaces) the monitor's token and returns it; shown to the caller once. */
  async issue(monitorId: string): Promise<string> {
    const token = `pt_${randomBytes(24).toString("base64url")}`;
    await this.db
      .prepare(
        `INSERT INTO push_tokens (monitor_id, digest, created_at) VALUES (?, ?, ?)
         ON CONFLICT (monitor_id) DO UPDATE SET digest = excluded.digest, created_at = excluded.created_at`,
      )
      .run(monitorId, digest(token), nowIso());
    return token;
  }

  /** The monitor a token belongs to, or undefined. */
  async monitorOf(token: string): Promise<string | undefined> {
    const row = (await this.db.prepare("SELECT monitor_id FROM push_tokens WHERE digest = ?").get(digest(token))) as
      { monitor_id: string } | undefined;
    return row?.monitor_id;
  }
}
