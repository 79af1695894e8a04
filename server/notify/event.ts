import type { NotificationEvent } from "../notification-event";

/** The key that ties a trigger, its reminders and its resolve together (PagerDuty dedup_key, Opsgenie alias). */
export function dedupKey(event: NotificationEvent): string {
  if (event.incident) return `pulumi-uptime-${event.incident.id}`;
  return `pulumi-uptime-${event.monitor?.id ?? "test"}-${event.event}`;
}

/** The one-line subject of an event (email subject, card title, PagerDuty summary). */
export function subjectOf(event: NotificationEvent): string {
  if (event.event === "test") return "Test notification from pulumi-uptime";
  const name = event.monitor?.name ?? "monitor";
  const prefix =
    event.notification === "reminder" ? "Reminder: " : event.notification === "escalation" ? "Escalation: " : "";
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
  if (event.event === "monitor.down" && hb?.error)
    lines.push(`${hb.error_class ? `${hb.error_class}: ` : ""}${hb.error}`);
  if (event.failed_locations?.length)
    lines.push(
      `Down at ${event.failed_locations.length === 1 ? "location" : "locations"} ${event.failed_locations.join(", ")}`,
    );
  if (event.monitor?.url) lines.push(event.monitor.url);
  if (event.incident && event.event === "monitor.down") lines.push(`Down since ${event.incident.started_at}`);
  if (event.incident) lines.push(`Incident ${event.incident.id}${ordinalOf(event)}`);
  return lines;
}

/** Which reminder or escalation step of its incident a notification is (empty for the others). */
function ordinalOf(event: NotificationEvent): string {
  if (event.notification === "reminder" && event.reminder !== undefined) return ` · reminder ${event.reminder}`;
  if (event.notification === "escalation" && event.escalation !== undefined)
    return ` · escalation step ${event.escalation}`;
  return "";
}
