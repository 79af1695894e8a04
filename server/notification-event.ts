// The event a channel is sent, as the alert outbox keeps it: below the store and the notifier, which both read it.
import type { EventType, Heartbeat, Monitor } from "../api";

/** How a failure caused only by a certificate expiring soon begins: the notifier tells it apart by it. */
export const CERT_EXPIRING_PREFIX = "certificate expires in ";

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
