import type { Executor } from "./sql/executor";
import type { Delivery } from "../../api";
import { type NotificationEvent, type NotificationKind, withoutCredentials } from "../notification-event";
import { newId } from "./ids";

/** One notification to one channel: queued, delivered, failed (with the receiver's reason) or cancelled. */
export interface AlertRow {
  id: string;
  account_id: string;
  monitor_id: string;
  channel_id: string;
  dedup: string;
  incident_id: string | null;
  kind: NotificationKind;
  body: string;
  status: "pending" | "delivered" | "failed" | "cancelled";
  attempts: number;
  due_at: number;
  reason: string | null;
  status_code: number | null;
  created_at: number;
  updated_at: number;
}

/**
 * What a new notification needs: the row's own fields, and the event its body is made of;
 * `dedup` makes it one (a second insert is ignored).
 */
export type NewAlert = Pick<
  AlertRow,
  "account_id" | "monitor_id" | "channel_id" | "dedup" | "incident_id" | "kind" | "due_at"
> & {
  event: NotificationEvent;
};

/**
 * The alert outbox: every notification a monitor's events cause, written before it is sent and
 * marked when it ends. A notification is identified by its `dedup` key (incident, channel, kind,
 * number), so a reminder computed again after a restart is not queued twice, and a pending one
 * left by a stopped server is sent by the next.
 */
/** An open incident of an active monitor, with the locations that found it down when it opened. */
export interface OpenIncident {
  id: string;
  monitor_id: string;
  started_at: number;
  failed_locations: string[];
}

export class AlertOutboxRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Queues a notification; undefined when one with its dedup key already exists. The monitor URL's
   * credentials are dropped first: the row is stored as it is, not sealed.
   */
  async enqueue(alert: NewAlert, now = Date.now()): Promise<AlertRow | undefined> {
    const id = newId("evt");
    const result = await this.db
      .prepare(
        `INSERT INTO alert_outbox (id, account_id, monitor_id, channel_id, dedup, incident_id, kind, body, status, attempts, due_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT (dedup) DO NOTHING`,
      )
      .run(
        id,
        alert.account_id,
        alert.monitor_id,
        alert.channel_id,
        alert.dedup,
        alert.incident_id,
        alert.kind,
        JSON.stringify(withoutCredentials(alert.event)),
        alert.due_at,
        now,
        now,
      );
    return result.changes === 1 ? await this.get(id) : undefined;
  }

  async get(id: string): Promise<AlertRow | undefined> {
    return (await this.db.prepare("SELECT * FROM alert_outbox WHERE id = ?").get(id)) as AlertRow | undefined;
  }

  /**
   * Pending notifications due by `now`, oldest first; one per incident and channel at a time (the
   * earliest), so a channel hears an incident's notifications in order even when a restarted
   * server finds several due at once.
   */
  async due(now: number, limit = 100): Promise<AlertRow[]> {
    return (await this.db
      .prepare(
        `SELECT * FROM alert_outbox a WHERE status = 'pending' AND due_at <= ?
         AND NOT EXISTS (SELECT 1 FROM alert_outbox b WHERE b.status = 'pending' AND b.channel_id = a.channel_id
           AND b.incident_id = a.incident_id AND (b.due_at < a.due_at OR (b.due_at = a.due_at AND b.created_at < a.created_at)))
         ORDER BY due_at, id LIMIT ?`,
      )
      .all(now, limit)) as unknown as AlertRow[];
  }

  /**
   * Claims the next attempt at a pending notification for `holder` until `now + leaseMs`: granted
   * when it is unclaimed, its claim expired (its replica died), or `holder` holds it. Two replicas
   * never send one notification at once.
   */
  async claim(id: string, holder: string, now: number, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .prepare(
        "UPDATE alert_outbox SET claimed_by = ?, claimed_until = ? WHERE id = ? AND status = 'pending' AND (claimed_by IS NULL OR claimed_by = ? OR claimed_until <= ?)",
      )
      .run(holder, now + leaseMs, id, holder, now);
    return result.changes === 1;
  }

  /** Gives up `holder`'s claim on a notification left pending (a shutdown): the next replica or start sends it at once. */
  async unclaim(id: string, holder: string): Promise<void> {
    await this.db
      .prepare("UPDATE alert_outbox SET claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?")
      .run(id, holder);
  }

  /** Whether the notification is still to be sent (not cancelled by a resolve meanwhile). */
  async isPending(id: string): Promise<boolean> {
    return (
      (
        (await this.db.prepare("SELECT status FROM alert_outbox WHERE id = ?").get(id)) as
          { status: string } | undefined
      )?.status === "pending"
    );
  }

  /** Records an attempt that will be retried (the reason kept for the record). */
  async attempted(id: string, reason: string, now = Date.now()): Promise<void> {
    await this.db
      .prepare("UPDATE alert_outbox SET attempts = attempts + 1, reason = ?, updated_at = ? WHERE id = ?")
      .run(reason, now, id);
  }

  /** Marks how a notification ended. */
  async finish(
    id: string,
    status: "delivered" | "failed" | "cancelled",
    outcome: { reason?: string; statusCode?: number | null } = {},
    now = Date.now(),
  ): Promise<void> {
    await this.db
      .prepare(
        "UPDATE alert_outbox SET status = ?, attempts = attempts + CASE WHEN ? = 'cancelled' THEN 0 ELSE 1 END, reason = ?, status_code = ?, updated_at = ? WHERE id = ?",
      )
      .run(status, status, outcome.reason ?? null, outcome.statusCode ?? null, now, id);
  }

  /** Cancels an incident's pending reminders and escalations (it is resolved). */
  async cancelPending(incidentId: string, now = Date.now()): Promise<void> {
    await this.db
      .prepare(
        "UPDATE alert_outbox SET status = 'cancelled', updated_at = ? WHERE incident_id = ? AND status = 'pending' AND kind IN ('reminder', 'escalation')",
      )
      .run(now, incidentId);
  }

  /** The channels an incident escalated to (so its resolve reaches them too), or (`trigger`) that heard it open. */
  async escalatedChannels(incidentId: string, kind: "escalation" | "trigger" = "escalation"): Promise<string[]> {
    return (
      (await this.db
        .prepare(
          "SELECT DISTINCT channel_id FROM alert_outbox WHERE incident_id = ? AND kind = ? AND status != 'cancelled' ORDER BY channel_id",
        )
        .all(incidentId, kind)) as { channel_id: string }[]
    ).map((r) => r.channel_id);
  }

  /** A channel's latest notifications, newest first (the record of deliveries). */
  async forChannel(channelId: string, limit = 100): Promise<Delivery[]> {
    const rows = (await this.db
      .prepare("SELECT * FROM alert_outbox WHERE channel_id = ? ORDER BY created_at DESC, id DESC LIMIT ?")
      .all(channelId, limit)) as unknown as AlertRow[];
    return rows.map((r) => ({
      id: r.id,
      monitor_id: r.monitor_id,
      incident_id: r.incident_id,
      kind: r.kind,
      event: (JSON.parse(r.body) as NotificationEvent).event,
      status: r.status,
      attempts: r.attempts,
      status_code: r.status_code,
      reason: r.reason,
      created_at: new Date(r.created_at).toISOString(),
      updated_at: new Date(r.updated_at).toISOString(),
    }));
  }

  /** Open incidents of active monitors: what reminders and escalations are computed from. */
  async openIncidents(): Promise<OpenIncident[]> {
    const rows = (await this.db
      .prepare(
        // Incidents the outer loop: SQLite's planner would scan every monitor each tick.
        `SELECT i.id, i.monitor_id, i.started_at, i.locations FROM incidents i ${this.db.dialect.leftFirstJoin} monitors m ON m.id = i.monitor_id WHERE i.ended_at IS NULL AND m.status = 'active'`,
      )
      .all()) as { id: string; monitor_id: string; started_at: number; locations: string | null }[];
    return rows.map(({ locations, ...r }) => ({
      ...r,
      failed_locations: locations ? (JSON.parse(locations) as string[]) : [],
    }));
  }

  /** The monitor's open incident, or (`closed`) the one that closed last. */
  async incidentOf(monitorId: string, closed: boolean): Promise<{ id: string; started_at: number } | undefined> {
    const sql = closed
      ? "SELECT id, started_at FROM incidents WHERE monitor_id = ? AND ended_at IS NOT NULL ORDER BY ended_at DESC, id DESC LIMIT 1"
      : "SELECT id, started_at FROM incidents WHERE monitor_id = ? AND ended_at IS NULL ORDER BY started_at DESC LIMIT 1";
    return (await this.db.prepare(sql).get(monitorId)) as { id: string; started_at: number } | undefined;
  }

  /** Deletes ended notifications older than `cutoff` (ms). */
  async prune(cutoff: number): Promise<void> {
    await this.db.prepare("DELETE FROM alert_outbox WHERE status != 'pending' AND updated_at < ?").run(cutoff);
  }
}
