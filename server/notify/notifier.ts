import type { FastifyBaseLogger } from "fastify";
import type { EventType, Heartbeat, Monitor } from "../../api";
import type { ScheduledMonitor } from "../store/monitors";
import { type DeliveryContext, deliver, type NotificationEvent } from "./deliver";

/** The monitor's health each event reports. */
const HEALTH_AFTER: Record<Exclude<EventType, "test">, Monitor["health"]> = {
  "monitor.down": "down",
  "monitor.up": "up",
  "monitor.degraded": "degraded",
  "monitor.degraded_resolved": "up",
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * Delivers `monitor.down` / `monitor.up` to each of a monitor's channels, in the background:
 * retries with backoff on failure, and never blocks the checker.
 */
export class Notifier {
  private closed = false;

  constructor(
    private readonly ctx: Omit<DeliveryContext, "accountId">,
    private readonly log: FastifyBaseLogger,
    private readonly retryDelaysMs: readonly number[] = [1_000, 5_000, 30_000],
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
      void this.deliverWithRetry(this.contextFor(monitor.account_id), channel, body);
    }
  }

  /** The delivery settings for one account (channel tests use them too). */
  contextFor(accountId: string): DeliveryContext {
    return { ...this.ctx, accountId };
  }

  /** Stops retrying; deliveries under way finish on their own. */
  close(): void {
    this.closed = true;
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
        return;
      } catch (err) {
        const delay = this.retryDelaysMs[attempt];
        if (delay === undefined || this.closed) {
          this.log.warn({ channel: channel.id, event: event.event, reason: (err as Error).message }, "notification dropped");
          return;
        }
        await sleep(delay * (0.5 + Math.random()));
      }
    }
  }
}
