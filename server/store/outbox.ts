import type { Executor } from "./sql/executor";
import { newId, nowIso } from "./ids";

/** An email the server would have sent, kept when no SMTP server is configured. */
export interface OutboxMessage {
  id: string;
  account_id: string;
  channel_id: string | null;
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
}

/** Emails recorded instead of sent; `uptime-server outbox list` shows them. */
export class OutboxRepository {
  constructor(private readonly db: Executor) {}

  async add(message: Omit<OutboxMessage, "id" | "created_at">): Promise<OutboxMessage> {
    const row: OutboxMessage = { id: newId("evt"), created_at: nowIso(), ...message };
    await this.db
      .prepare(
        "INSERT INTO outbox (id, account_id, channel_id, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(row.id, row.account_id, row.channel_id, row.recipient, row.subject, row.body, row.created_at);
    return row;
  }

  async list(limit = 100): Promise<OutboxMessage[]> {
    return (await this.db
      .prepare("SELECT * FROM outbox ORDER BY created_at DESC, id DESC LIMIT ?")
      .all(limit)) as unknown as OutboxMessage[];
  }
}
