import { randomBytes } from "node:crypto";
import type { Executor } from "./sql/executor";
import { newId, nowIso } from "./ids";

/** A subscriber of a status page: an email address (after its confirmation) or a webhook URL. */
export interface SubscriberRow {
  id: string;
  status_page_id: string;
  kind: "email" | "webhook";
  address: string;
  /** JSON array of component keys; null: the whole page. */
  components: string | null;
  token: string;
  /** A webhook's signing secret, sealed. */
  secret: string | null;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  created_at: string;
}

/** What a subscription request asked for. */
export interface SubscriptionRequest {
  kind: "email" | "webhook";
  address: string;
  components: string[] | null;
  /** A webhook's signing secret, sealed. */
  secret: string | null;
  /** Webhooks are confirmed at once (their secret signs every post); emails by the link mailed. */
  confirmed: boolean;
}

/** Subscribers of status pages, and the notices each was sent (each at most once). */
export class StatusSubscriberRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Records a subscription request. A new address, or one that had unsubscribed, gets a fresh
   * token and waits for its confirmation; an address already subscribed is left as it is.
   * Returns the row and whether a confirmation should be sent.
   */
  async request(pageId: string, req: SubscriptionRequest): Promise<{ row: SubscriberRow; confirm: boolean }> {
    return await this.db.transaction(async () => {
      const existing = (await this.db
        .prepare("SELECT * FROM status_subscribers WHERE status_page_id = ? AND kind = ? AND address = ?")
        .get(pageId, req.kind, req.address)) as SubscriberRow | undefined;
      const components = req.components === null ? null : JSON.stringify([...new Set(req.components)].sort());
      const now = nowIso();
      if (existing && existing.confirmed_at !== null && existing.unsubscribed_at === null)
        return { row: existing, confirm: false };
      const token = randomBytes(24).toString("base64url");
      if (existing) {
        await this.db
          .prepare(
            "UPDATE status_subscribers SET components = ?, token = ?, secret = ?, confirmed_at = ?, unsubscribed_at = NULL WHERE id = ?",
          )
          .run(components, token, req.secret, req.confirmed ? now : null, existing.id);
      } else {
        await this.db
          .prepare(
            "INSERT INTO status_subscribers (id, status_page_id, kind, address, components, token, secret, confirmed_at, unsubscribed_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
          )
          .run(
            newId("sub"),
            pageId,
            req.kind,
            req.address,
            components,
            token,
            req.secret,
            req.confirmed ? now : null,
            now,
          );
      }
      const row = (await this.db
        .prepare("SELECT * FROM status_subscribers WHERE status_page_id = ? AND kind = ? AND address = ?")
        .get(pageId, req.kind, req.address)) as SubscriberRow;
      return { row, confirm: !req.confirmed };
    });
  }

  /** Confirms the subscriber holding the token; undefined when no such token. */
  async confirm(pageId: string, token: string): Promise<SubscriberRow | undefined> {
    await this.db
      .prepare(
        "UPDATE status_subscribers SET confirmed_at = ? WHERE status_page_id = ? AND token = ? AND confirmed_at IS NULL AND unsubscribed_at IS NULL",
      )
      .run(nowIso(), pageId, token);
    return (await this.db
      .prepare("SELECT * FROM status_subscribers WHERE status_page_id = ? AND token = ?")
      .get(pageId, token)) as SubscriberRow | undefined;
  }

  /** Ends the subscription holding the token; whether there was one. */
  async unsubscribe(pageId: string, token: string): Promise<boolean> {
    const result = await this.db
      .prepare(
        "UPDATE status_subscribers SET unsubscribed_at = ? WHERE status_page_id = ? AND token = ? AND unsubscribed_at IS NULL",
      )
      .run(nowIso(), pageId, token);
    return result.changes > 0;
  }

  /** Confirmed, subscribed followers of the page. */
  async active(pageId: string): Promise<SubscriberRow[]> {
    return (await this.db
      .prepare(
        "SELECT * FROM status_subscribers WHERE status_page_id = ? AND confirmed_at IS NOT NULL AND unsubscribed_at IS NULL ORDER BY created_at, id",
      )
      .all(pageId)) as unknown as SubscriberRow[];
  }

  /** Claims a notice (`dedup`) for a subscriber: true the first time only, so each is sent once. */
  async claimNotice(subscriberId: string, dedup: string): Promise<boolean> {
    return await this.db.transaction(async () => {
      if (await this.db.prepare("SELECT 1 FROM status_notices WHERE dedup = ?").get(dedup)) return false;
      await this.db
        .prepare("INSERT INTO status_notices (dedup, subscriber_id, created_at) VALUES (?, ?, ?)")
        .run(dedup, subscriberId, nowIso());
      return true;
    });
  }
}
