import type { FastifyBaseLogger } from "fastify";
import type { Store } from "../store";
import type { OpenIncident } from "../store/alert-outbox";
import type { ScheduledMonitor } from "../store/monitors";
import type { NotificationEvent } from "../notification-event";
import { hears, type Notifier } from "./notifier";

/**
 * Reminders and escalations of open incidents, and notifications a stopped server left pending.
 * Each tick computes from every open incident's start what is due now — the latest reminder, the
 * escalation steps reached — and queues it in the alert outbox under a key that makes it one
 * (incident, channel, kind, number): a tick after a restart queues what the stopped server did not,
 * and nothing twice. Then it sends what is pending and due.
 *
 * A maintenance window silences them, as it silences the checks: while one covers the monitor
 * nothing is queued or sent, a reminder due inside a window is skipped (the next one after it
 * follows the schedule), and an escalation step reached inside a window is sent when the window
 * ends, if the incident is still open then.
 */
export class AlertScheduler {
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly store: Store,
    private readonly notifier: Pick<Notifier, "send">,
    private readonly log: FastifyBaseLogger,
    private readonly tickMs = 1_000,
  ) {}

  async start(): Promise<void> {
    if (this.timer) return;
    await this.tick();
    // tick() catches and logs its own failures.
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One pass: queue what is due, then send every pending notification that is due. */
  async tick(now = Date.now()): Promise<void> {
    if (this.running || !this.store.db.isOpen) return;
    this.running = true;
    try {
      const silenced = new Map<string, boolean>();
      const inMaintenance = async (monitorId: string) => {
        if (!silenced.has(monitorId))
          silenced.set(monitorId, await this.store.maintenanceWindows.inMaintenance(monitorId, now));
        return silenced.get(monitorId) as boolean;
      };
      for (const incident of await this.store.alerts.openIncidents()) {
        const monitor = await this.store.monitors.find(incident.monitor_id);
        if (monitor && !(await inMaintenance(monitor.id))) await this.queueDue(monitor, incident, now);
      }
      for (const row of await this.store.alerts.due(now)) {
        // One queued before the window began (a restart's leftover) waits for its end.
        if ((row.kind === "reminder" || row.kind === "escalation") && (await inMaintenance(row.monitor_id))) continue;
        this.notifier.send(row);
      }
    } catch (err) {
      this.log.error({ err }, "alert scheduling failed");
    } finally {
      this.running = false;
    }
  }

  private async queueDue(monitor: ScheduledMonitor, incident: OpenIncident, now: number): Promise<void> {
    const { alerts, channels } = this.store;
    const elapsed = now - incident.started_at;
    const body = (extra: Partial<NotificationEvent>): NotificationEvent => ({
      event: "monitor.down",
      occurred_at: new Date(now).toISOString(),
      monitor: { id: monitor.id, name: monitor.name, type: monitor.type, url: monitor.url, health: "down" },
      incident: { id: incident.id, started_at: new Date(incident.started_at).toISOString() },
      // As the trigger: the locations that found the monitor down when the incident opened.
      ...(incident.failed_locations.length > 0 ? { failed_locations: incident.failed_locations } : {}),
      ...extra,
    });
    const queue = async (
      channelId: string,
      kind: "reminder" | "escalation",
      n: number,
      due: number,
      event: NotificationEvent,
    ) =>
      await alerts.enqueue(
        {
          account_id: monitor.account_id,
          monitor_id: monitor.id,
          channel_id: channelId,
          dedup: `${incident.id}/${channelId}/${kind}/${n}`,
          incident_id: incident.id,
          kind,
          event,
          due_at: due,
        },
        now,
      );

    const linked = (await channels.forMonitor(monitor.id)).filter((c) => hears(c, "monitor.down"));
    const linkedIds = new Set(linked.map((c) => c.id));
    const escalated = new Set(await alerts.escalatedChannels(incident.id));
    /** When each channel an escalation reached was reached: it hears the reminders after that. */
    const reachedAt = new Map<string, number>();
    for (const [i, step] of monitor.escalation.entries()) {
      const due = incident.started_at + step.after * 1000;
      if (due > now) continue;
      for (const id of step.channels) {
        // A channel the monitor alerts already, or an earlier step reached, is not told again.
        if (linkedIds.has(id) || reachedAt.has(id)) continue;
        reachedAt.set(id, due);
        if (escalated.has(id)) continue;
        const channel = await channels.stored(monitor.account_id, id);
        if (!channel || !hears(channel, "monitor.down")) continue;
        await queue(id, "escalation", i + 1, due, body({ notification: "escalation", escalation: i + 1 }));
        escalated.add(id);
      }
    }

    if (monitor.remind_every_sec === null) return;
    const every = monitor.remind_every_sec * 1000;
    // Only the latest reminder due: a server that was stopped for a while sends one, not a burst.
    const n = Math.floor(elapsed / every);
    if (n < 1) return;
    const due = incident.started_at + n * every;
    if (await this.store.maintenanceWindows.inMaintenance(monitor.id, due)) return;
    // Those who heard the incident open (a certificate_expiring-only channel included) and those it escalated to.
    const heard = new Set([...linkedIds, ...(await alerts.escalatedChannels(incident.id, "trigger"))]);
    for (const id of [...heard, ...escalated]) {
      if ((reachedAt.get(id) ?? -Infinity) >= due) continue;
      await queue(id, "reminder", n, due, body({ notification: "reminder", reminder: n }));
    }
  }
}
