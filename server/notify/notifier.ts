import type { FastifyBaseLogger } from "fastify";
import type { EventType, Heartbeat, Monitor } from "../../api";
import type { ScheduledMonitor } from "../store/monitors";
import { type DeliveryContext, deliver, type NotificationEvent } from "./deliver";

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

/**
 * Delivers `monitor.down` / `monitor.up` to each of a monitor's channels, in the background:
 * retries with backoff on failure, and never blocks the checker.
 */
export class Notifier {
  private closed = false;
  /** Deliveries under way or waiting to retry: drained at shutdown. */
  private readonly pending = new Set<Promise<void>>();
  /** Aborted at shutdown: wakes the deliveries waiting between attempts for a last one. */
  private readonly wake = new AbortController();

  constructor(
    private readonly ctx: Omit<DeliveryContext, "accountId">,
    private readonly log: FastifyBaseLogger,
    private readonly retryDelaysMs: readonly number[] = [1_000, 5_000, 30_000],
    private readonly observer?: DeliveryObserver,
  ) {}

  notify(monitor: ScheduledMonitor, event: Exclude<EventType, "test">, heartbeat: Heartbeat): void {
    const body: NotificationEvent = {
      event,
      occurred_at: heartbeat.checked_at,
      monitor: { id: monitor.id, name: monitor.name, type: monitor.type, url: monitor.url, health: HEALTH_AFTER[event] },
      heartbeat,
    };
    // Degraded transitions go only to the channels that asked for them.
    const degradedEvent = event === "monitor.degraded" || event === "monitor.degraded_resolved";
    for (const channel of this.ctx.store.channels.forMonitor(monitor.id)) {
      if (degradedEvent && !channel.notify_degraded) continue;
      // deliverWithRetry never rejects: each failure ends in a log line.
      const delivery = this.deliverWithRetry(this.contextFor(monitor.account_id), channel, body);
      this.pending.add(delivery);
      void delivery.finally(() => this.pending.delete(delivery));
    }
  }

  /** The delivery settings for one account (channel tests use them too). */
  contextFor(accountId: string): DeliveryContext {
    return { ...this.ctx, accountId };
  }

  /**
   * Flushes what is pending, for a shutdown: a delivery waiting to retry makes its last attempt
   * now, and this resolves when every delivery has ended (delivered, recorded in the outbox, or
   * given up). Nothing is retried after it.
   */
  async drain(): Promise<void> {
    this.closed = true;
    this.wake.abort();
    await Promise.allSettled([...this.pending]);
  }

  private sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake.signal.addEventListener("abort", done, { once: true });
    });
  }

  private async deliverWithRetry(
    ctx: DeliveryContext,
    channel: Parameters<typeof deliver>[1],
    event: NotificationEvent,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await deliver(ctx, channel, event);
        this.log.info({ channel: channel.id, event: event.event, attempt }, "notification delivered");
        this.observer?.delivered(channel.type);
        return;
      } catch (err) {
        const delay = this.retryDelaysMs[attempt];
        // Once a drain began, the attempt just made was the last.
        if (delay === undefined || this.closed) {
          this.log.warn({ channel: channel.id, event: event.event, reason: (err as Error).message }, "notification dropped");
          this.observer?.failed(channel.type);
          return;
        }
        await this.sleep(delay * (0.5 + Math.random()));
      }
    }
  }
}
