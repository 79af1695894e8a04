import { createHmac } from "node:crypto";
import type { Dispatcher } from "undici";
import { request } from "undici";
import type { EventType, Heartbeat, Monitor } from "../../api";
import { assertTargetAllowed } from "../outbound";
import type { Store } from "../store";
import type { StoredChannel } from "../store/channels";

/** The JSON body of every event a channel receives. */
export interface NotificationEvent {
  event: EventType;
  occurred_at: string;
  monitor?: Pick<Monitor, "id" | "name" | "type" | "url" | "health">;
  heartbeat?: Heartbeat;
}

/** What a delivery achieved: for `channels/<id>/test` and the notifier's log. */
export interface DeliveryResult {
  status_code: number | null;
  response_time_ms: number;
}

/** A failed delivery, with a reason safe to show (never the URL, which carries tokens). */
export class DeliveryError extends Error {
  readonly code = "delivery_failed";
}

/** Sends an email; set when the server has an SMTP URL. */
export type SendMail = (message: { to: string; subject: string; text: string }) => Promise<unknown>;

export interface DeliveryContext {
  store: Store;
  sendMail?: SendMail;
  dispatcher: Dispatcher;
  allowPrivate: boolean;
  accountId: string;
  timeoutMs?: number;
}

/** Delivers one event to one channel: webhook (signed), Slack, or email (recorded in the outbox). */
export async function deliver(
  ctx: DeliveryContext,
  channel: StoredChannel,
  event: NotificationEvent,
): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const config = channel.config as Record<string, string>;
  event = withoutCredentials(event);
  if (channel.type === "email") {
    if (ctx.sendMail) {
      try {
        await ctx.sendMail({ to: config.address as string, subject: subjectOf(event), text: JSON.stringify(event, null, 2) });
      } catch (err) {
        throw new DeliveryError(`SMTP server refused the message: ${(err as Error).message}`);
      }
      return { status_code: null, response_time_ms: elapsed() };
    }
    ctx.store.outbox.add({
      account_id: ctx.accountId,
      channel_id: channel.id,
      recipient: config.address as string,
      subject: subjectOf(event),
      body: JSON.stringify(event, null, 2),
    });
    return { status_code: null, response_time_ms: elapsed() };
  }
  const url = new URL(channel.type === "slack" ? (config.webhook_url as string) : (config.url as string));
  const body = JSON.stringify(channel.type === "slack" ? { text: slackText(event) } : event);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "pulumi-uptime-server",
    "x-event": event.event,
  };
  if (channel.type === "webhook" && config.secret) {
    headers["x-signature"] = `sha256=${createHmac("sha256", config.secret).update(body).digest("hex")}`;
  }
  try {
    assertTargetAllowed(url, ctx.allowPrivate);
    const timeout = ctx.timeoutMs ?? 10_000;
    const res = await request(url, {
      method: "POST",
      body,
      headers,
      dispatcher: ctx.dispatcher,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout),
    });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode >= 300) {
      throw new DeliveryError(`receiver at ${url.host} answered HTTP ${res.statusCode}`);
    }
    return { status_code: res.statusCode, response_time_ms: elapsed() };
  } catch (err) {
    if (err instanceof DeliveryError) throw err;
    throw new DeliveryError(`could not reach ${url.host}: ${(err as Error).message}`);
  }
}

/** The event with the monitor URL's user and password removed: receivers never see them. */
function withoutCredentials(event: NotificationEvent): NotificationEvent {
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

/** Slack's one message: the subject, and for a failure why it failed (its class and error). */
function slackText(event: NotificationEvent): string {
  const hb = event.heartbeat;
  if (event.event !== "monitor.down" || !hb?.error) return subjectOf(event);
  return `${subjectOf(event)}\n${hb.error_class ? `${hb.error_class}: ` : ""}${hb.error}`;
}

function subjectOf(event: NotificationEvent): string {
  if (event.event === "test") return "Test notification from pulumi-uptime";
  const name = event.monitor?.name ?? "monitor";
  switch (event.event) {
    case "monitor.down":
      return `🔴 ${name} is down`;
    case "monitor.degraded":
      return `🟠 ${name} is degraded (slow)`;
    case "monitor.degraded_resolved":
      return `🟢 ${name} is no longer degraded`;
    default:
      return `🟢 ${name} is up again`;
  }
}
