import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { EventType, Heartbeat, Monitor } from "../../api";
import { CERT_EXPIRING_PREFIX, type NotificationEvent, type NotificationKind } from "../notification-event";
import type { AlertRow } from "../store/alert-outbox";
import type { StoredChannel } from "../store/channels";
import type { ScheduledMonitor } from "../store/monitors";
import { type DeliveryContext, DeliveryError, deliver } from "./deliver";

/** Told how each notification ended (the server's metrics). */
export interface DeliveryObserver {
  delivered(channelType: string): void;
  failed(channelType: string): void;
}

/** The monitor's health each event reports. */
const HEALTH_AFTER: Record<Exclude<EventType, "test">, Monitor["health"]> = {
  "monitor.down": "down",
  "monitor.up": "up",
  "monitor.degraded": "degraded",
  "monitor.degraded_resolved": "up",
};

/** Whether a channel hears an event (its `events`; a certificate incident also reaches `certificate_expiring`). */
export function hears(
  channel: Pick<StoredChannel, "events">,
  event: Exclude<EventType, "test">,
  cause?: string,
): boolean {
  switch (event) {
    case "monitor.down":
      return (
        channel.events.includes("down") ||
        (cause === "certificate_expiring" && channel.events.includes("certificate_expiring"))
      );
    case "monitor.up":
      return channel.events.includes("recovered");
    default:
      return channel.events.includes("degraded");
  }
}

/** How long a claim on a notification holds: longer than one attempt and the wait before the next. */
const CLAIM_MS = 120_000;

/**
 * Delivers monitors' events to their channels, in the background: each notification is written to
 * the alert outbox first (store/alert-outbox.ts), then sent with retries and backoff, and marked
 * delivered or failed with the receiver's reason. A 4xx is not retried; one left pending by a
 * stopped server is sent by the next (see AlertScheduler). Never blocks the checker.
 */
export class Notifier {
  private closed = false;
  /** This process among the replicas claiming notifications. */
  private readonly holder = randomUUID();
  /** Deliveries under way or waiting to retry: drained at shutdown. */
  private readonly pending = new Set<Promise<void>>();
  /** Outbox rows being delivered by this process: never sent twice at once. */
  private readonly inFlight = new Set<string>();
  /**
   * The latest delivery of each incident on each channel: the next starts when it ends, so a
   * reminder a slow receiver is still taking lands before the resolve (a vendor would reopen).
   */
  private readonly lanes = new Map<string, Promise<void>>();
  /** Deliveries of each lane waiting between attempts: a resolve wakes them (see wakeLanes). */
  private readonly sleepers = new Map<string, Set<() => void>>();
  /** Aborted at shutdown: wakes the deliveries waiting between attempts for a last one. */
  private readonly wake = new AbortController();

  constructor(
    /** The store, mailer and outbound dispatcher every delivery uses (status page notices use them too). */
    readonly ctx: Omit<DeliveryContext, "accountId">,
    private readonly log: FastifyBaseLogger,
    private readonly retryDelaysMs: readonly number[] = [1_000, 5_000, 30_000],
    private readonly observer?: DeliveryObserver,
  ) {}

  /** Deliveries under way or waiting to retry: what a shutdown waits for. */
  get deliveriesPending(): number {
    return this.pending.size;
  }

  async notify(
    monitor: ScheduledMonitor,
    event: Exclude<EventType, "test">,
    heartbeat: Heartbeat,
    failedLocations: readonly string[] = [],
  ): Promise<void> {
    const { store } = this.ctx;
    const incident =
      event === "monitor.down" || event === "monitor.up"
        ? await store.alerts.incidentOf(monitor.id, event === "monitor.up")
        : undefined;
    const cause =
      event === "monitor.down" && heartbeat.error?.startsWith(CERT_EXPIRING_PREFIX)
        ? "certificate_expiring"
        : undefined;
    const kind: NotificationKind = !incident ? "notice" : event === "monitor.up" ? "resolve" : "trigger";
    const body: NotificationEvent = {
      event,
      occurred_at: heartbeat.checked_at,
      monitor: {
        id: monitor.id,
        name: monitor.name,
        type: monitor.type,
        url: monitor.url,
        health: HEALTH_AFTER[event],
      },
      heartbeat,
      ...(incident
        ? { incident: { id: incident.id, started_at: new Date(incident.started_at).toISOString() }, notification: kind }
        : {}),
      ...(cause ? { cause } : {}),
      ...(event === "monitor.down" && failedLocations.length > 0 ? { failed_locations: [...failedLocations] } : {}),
    };
    const targets = await store.channels.forMonitor(monitor.id);
    if (incident && event === "monitor.up") {
      // The incident is over: reminders not sent yet are moot, and channels it escalated to hear the end.
      await store.alerts.cancelPending(incident.id);
      this.wakeLanes(incident.id);
      const linked = new Set(targets.map((c) => c.id));
      for (const id of await store.alerts.escalatedChannels(incident.id)) {
        const channel = linked.has(id) ? undefined : await store.channels.stored(monitor.account_id, id);
        if (channel) targets.push(channel);
      }
    }
    const now = Date.now();
    for (const channel of targets) {
      if (!hears(channel, event, cause)) continue;
      const row = await store.alerts.enqueue({
        account_id: monitor.account_id,
        monitor_id: monitor.id,
        channel_id: channel.id,
        dedup: `${incident?.id ?? heartbeat.id}/${channel.id}/${kind}/0`,
        incident_id: incident?.id ?? null,
        kind,
        event: body,
        due_at: now,
      });
      if (row) this.send(row);
    }
  }

  /**
   * Sends a queued notification in the background, unless this process is sending it already;
   * one of an incident waits for the channel's previous one of that incident to end.
   */
  send(row: AlertRow): void {
    if (this.closed || this.inFlight.has(row.id)) return;
    this.inFlight.add(row.id);
    const lane = laneOf(row);
    const before = (lane && this.lanes.get(lane)) || Promise.resolve();
    // deliverWithRetry never rejects: each failure ends in the outbox and a log line.
    const delivery = before
      .then(() => this.deliverWithRetry(row, lane))
      .finally(() => {
        this.inFlight.delete(row.id);
        this.pending.delete(delivery);
        if (lane && this.lanes.get(lane) === delivery) this.lanes.delete(lane);
      });
    if (lane) this.lanes.set(lane, delivery);
    this.pending.add(delivery);
  }

  /**
   * Wakes an incident's deliveries waiting to retry: once it resolved, a cancelled reminder stops
   * now and a trigger makes its next attempt now, instead of holding the resolve behind a backoff.
   */
  private wakeLanes(incidentId: string): void {
    for (const [lane, wakers] of this.sleepers)
      if (lane.startsWith(`${incidentId}/`)) for (const wake of wakers) wake();
  }

  /** The delivery settings for one account (channel tests use them too). */
  contextFor(accountId: string): DeliveryContext {
    return { ...this.ctx, accountId };
  }

  /**
   * Flushes what is pending, for a shutdown: a delivery waiting to retry makes its last attempt
   * now, and this resolves when every delivery has ended (delivered, recorded in the outbox, or
   * left pending there for the next start). Nothing is retried after it.
   */
  async drain(): Promise<void> {
    this.closed = true;
    this.wake.abort();
    await Promise.allSettled([...this.pending]);
  }

  private sleep(ms: number, lane: string | undefined): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      const wakers = lane ? (this.sleepers.get(lane) ?? new Set()) : undefined;
      if (lane && wakers) this.sleepers.set(lane, wakers.add(done));
      const sleepers = this.sleepers;
      function done() {
        clearTimeout(timer);
        wakers?.delete(done);
        if (lane && wakers?.size === 0) sleepers.delete(lane);
        resolve();
      }
      this.wake.signal.addEventListener("abort", done, { once: true });
    });
  }

  private async deliverWithRetry(row: AlertRow, lane: string | undefined): Promise<void> {
    const { alerts, channels, db } = this.ctx.store;
    const channel = await channels.stored(row.account_id, row.channel_id);
    if (!channel) return await alerts.finish(row.id, "cancelled", { reason: "channel deleted" });
    const event = JSON.parse(row.body) as NotificationEvent;
    const log = { channel: channel.id, event: event.event, notification: row.kind };
    for (let attempt = 0; ; attempt++) {
      // A resolve cancels the reminders still queued: one sent after it would page again. The
      // claim also keeps another replica from sending it at the same time.
      if (!db.isOpen || !(await alerts.claim(row.id, this.holder, Date.now(), CLAIM_MS))) return;
      try {
        const result = await deliver(this.contextFor(row.account_id), channel, event);
        if (db.isOpen) await alerts.finish(row.id, "delivered", { statusCode: result.status_code });
        this.log.info({ ...log, attempt }, "notification delivered");
        this.observer?.delivered(channel.type);
        return;
      } catch (err) {
        const reason = (err as Error).message;
        const statusCode = err instanceof DeliveryError ? err.statusCode : null;
        const delay = this.retryDelaysMs[attempt];
        if (!db.isOpen) return;
        if ((err instanceof DeliveryError && err.permanent) || delay === undefined) {
          await alerts.finish(row.id, "failed", { reason, statusCode });
          this.log.warn({ ...log, reason }, "notification dropped");
          this.observer?.failed(channel.type);
          return;
        }
        await alerts.attempted(row.id, reason);
        // Once a drain began, the attempt just made was the last here: the row stays pending,
        // and the next start of the server sends it.
        if (this.closed) {
          this.log.warn({ ...log, reason }, "notification left pending for the next start");
          await alerts.unclaim(row.id, this.holder);
          this.observer?.failed(channel.type);
          return;
        }
        await this.sleep(delay * (0.5 + Math.random()), lane);
      }
    }
  }
}

/** The lane of a notification: its incident on its channel (a degraded notice has none). */
function laneOf(row: Pick<AlertRow, "incident_id" | "channel_id">): string | undefined {
  return row.incident_id === null ? undefined : `${row.incident_id}/${row.channel_id}`;
}
