import type { EventType, Heartbeat, Monitor } from "../../api";

/** Which notification of an incident an event is. */
export type NotificationKind = "trigger" | "reminder" | "escalation" | "resolve" | "notice";

/** The JSON body of every event a channel receives (webhooks get it as it is). */
export interface NotificationEvent {
  event: EventType;
  occurred_at: string;
  monitor?: Pick<Monitor, "id" | "name" | "type" | "url" | "health">;
  heartbeat?: Heartbeat;
  /** The incident a down or up event belongs to: its id is the vendors' dedup key. */
  incident?: { id: string; started_at: string };
  /** Trigger, reminder (the `reminder`-th), escalation (step `escalation`, from 1), resolve, notice. */
  notification?: NotificationKind;
  reminder?: number;
  escalation?: number;
  /** Why the incident opened, when it opened only because the certificate expires soon. */
  cause?: "certificate_expiring";
  /** A down event: the monitor's locations that found it down (each after its confirmations). */
  failed_locations?: string[];
}

/** The key that ties a trigger, its reminders and its resolve together (PagerDuty dedup_key, Opsgenie alias). */
export function dedupKey(event: NotificationEvent): string {
  if (event.incident) return `pulumi-uptime-${event.incident.id}`;
  return `pulumi-uptime-${event.monitor?.id ?? "test"}-${event.event}`;
}

/** The one-line subject of an event (email subject, card title, PagerDuty summary). */
export function subjectOf(event: NotificationEvent): string {
  if (event.event === "test") return "Test notification from pulumi-uptime";
  const name = event.monitor?.name ?? "monitor";
  const prefix = event.notification === "reminder" ? "Reminder: " : event.notification === "escalation" ? "Escalation: " : "";
  switch (event.event) {
    case "monitor.down":
      return `${prefix}🔴 ${name} is down${event.cause === "certificate_expiring" ? " (certificate expiring)" : ""}`;
    case "monitor.degraded":
      return `🟠 ${name} is degraded (slow)`;
    case "monitor.degraded_resolved":
      return `🟢 ${name} is no longer degraded`;
    default:
      return `🟢 ${name} is up again`;
  }
}

/**
 * Lines that say why: the failure, the target, since when, and which incident (and which reminder
 * or escalation step of it) this is — chat channels have no dedup key, so people match a resolve
 * to its alert by the incident id.
 */
export function detailsOf(event: NotificationEvent): string[] {
  const lines: string[] = [];
  const hb = event.heartbeat;
  if (event.event === "monitor.down" && hb?.error) lines.push(`${hb.error_class ? `${hb.error_class}: ` : ""}${hb.error}`);
  if (event.failed_locations?.length) lines.push(`Down at ${event.failed_locations.length === 1 ? "location" : "locations"} ${event.failed_locations.join(", ")}`);
  if (event.monitor?.url) lines.push(event.monitor.url);
  if (event.incident && event.event === "monitor.down") lines.push(`Down since ${event.incident.started_at}`);
  if (event.incident) lines.push(`Incident ${event.incident.id}${ordinalOf(event)}`);
  return lines;
}

/** Which reminder or escalation step of its incident a notification is (empty for the others). */
function ordinalOf(event: NotificationEvent): string {
  if (event.notification === "reminder" && event.reminder !== undefined) return ` · reminder ${event.reminder}`;
  if (event.notification === "escalation" && event.escalation !== undefined) return ` · escalation step ${event.escalation}`;
  return "";
}

/** The event with the monitor URL's user and password removed: receivers never see them. */
export function withoutCredentials(event: NotificationEvent): NotificationEvent {
  if (!event.monitor?.url) return event;
  try {
    const url = new URL(event.monitor.url);
    if (!url.username && !url.password) return event;
    url.username = "";
    url.password = "";
    return { ...event, monitor: { ...event.monitor, url: url.toString() } };
  } catch {
    return event;
  }
}
