import { createHmac } from "node:crypto";
import type { ChannelType } from "../../api";
import type { NotificationEvent } from "../notification-event";
import { dedupKey, detailsOf, subjectOf } from "./event";

/** One HTTP request a channel makes for an event: the vendor's documented payload. */
export interface VendorRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** Default vendor hosts; a channel's `api_url` replaces them (tests point it at a local receiver). */
export const VENDOR_URLS = {
  pagerduty: "https://events.pagerduty.com",
  opsgenie: { us: "https://api.opsgenie.com", eu: "https://api.eu.opsgenie.com" },
  telegram: "https://api.telegram.org",
} as const;

const base = (override: string | undefined, fallback: string) => (override ?? fallback).replace(/\/+$/, "");

/** Whether the event closes an incident: a resolve for PagerDuty, a close for Opsgenie. */
const resolves = (event: NotificationEvent) => event.event === "monitor.up";

/** Colour of a Discord embed (decimal RGB) and the style of a Teams card's title, per event. */
const COLOURS: Record<string, [number, string]> = {
  "monitor.down": [0xd93025, "attention"],
  "monitor.degraded": [0xf29900, "warning"],
  "monitor.up": [0x188038, "good"],
  "monitor.degraded_resolved": [0x188038, "good"],
  test: [0x1a73e8, "accent"],
};

/** The request a channel of `type` makes for `event` (email is not HTTP: see deliver.ts). */
export function vendorRequest(
  type: Exclude<ChannelType, "email">,
  config: Record<string, string>,
  event: NotificationEvent,
): VendorRequest {
  const json = { "content-type": "application/json", "user-agent": "pulumi-uptime-server" };
  switch (type) {
    case "webhook": {
      const body = JSON.stringify(event);
      const headers: Record<string, string> = { ...json, "x-event": event.event };
      // Signed over the exact bytes sent, so a receiver can check them before parsing.
      if (config.secret)
        headers["x-signature"] = `sha256=${createHmac("sha256", config.secret).update(body).digest("hex")}`;
      return { url: new URL(config.url as string), headers, body };
    }
    case "slack":
      return {
        url: new URL(config.webhook_url as string),
        headers: { ...json, "x-event": event.event },
        body: JSON.stringify({ text: slackText(event) }),
      };
    case "pagerduty":
      return {
        url: new URL(`${base(config.api_url, VENDOR_URLS.pagerduty)}/v2/enqueue`),
        headers: json,
        body: JSON.stringify(pagerDutyEvent(config, event)),
      };
    case "opsgenie": {
      const host = base(config.api_url, VENDOR_URLS.opsgenie[(config.region ?? "us") as "us" | "eu"]);
      const headers = { ...json, authorization: `GenieKey ${config.api_key}` };
      if (resolves(event)) {
        const url = new URL(`${host}/v2/alerts/${encodeURIComponent(dedupKey(event))}/close`);
        url.searchParams.set("identifierType", "alias");
        return { url, headers, body: JSON.stringify({ source: "pulumi-uptime", note: subjectOf(event) }) };
      }
      return { url: new URL(`${host}/v2/alerts`), headers, body: JSON.stringify(opsgenieAlert(config, event)) };
    }
    case "teams":
      return { url: new URL(config.webhook_url as string), headers: json, body: JSON.stringify(teamsCard(event)) };
    case "discord":
      return { url: new URL(config.webhook_url as string), headers: json, body: JSON.stringify(discordMessage(event)) };
    case "telegram": {
      const url = new URL(`${base(config.api_url, VENDOR_URLS.telegram)}/bot${config.bot_token}/sendMessage`);
      const text = [subjectOf(event), ...detailsOf(event)].join("\n").slice(0, 4096);
      return {
        url,
        headers: json,
        body: JSON.stringify({ chat_id: config.chat_id, text, disable_web_page_preview: true }),
      };
    }
  }
}

/** Slack's one message: the subject, and for a failure why it failed (its class and error). */
function slackText(event: NotificationEvent): string {
  const hb = event.heartbeat;
  if (event.event !== "monitor.down" || !hb?.error) return subjectOf(event);
  return `${subjectOf(event)}\n${hb.error_class ? `${hb.error_class}: ` : ""}${hb.error}`;
}

/** Events API v2: a trigger (reminders re-trigger the same dedup_key, which PagerDuty folds in) or a resolve. */
function pagerDutyEvent(config: Record<string, string>, event: NotificationEvent): object {
  const dedup_key = dedupKey(event);
  if (resolves(event)) return { routing_key: config.routing_key, event_action: "resolve", dedup_key };
  const severity =
    event.event === "monitor.down" ? (config.severity ?? "critical") : event.event === "test" ? "info" : "warning";
  return {
    routing_key: config.routing_key,
    event_action: "trigger",
    dedup_key,
    payload: {
      summary: subjectOf(event).slice(0, 1024),
      source: event.monitor?.url ?? event.monitor?.id ?? "pulumi-uptime",
      severity,
      timestamp: event.occurred_at,
      component: event.monitor?.name,
      class: event.heartbeat?.error_class ?? undefined,
      custom_details: {
        event: event.event,
        notification: event.notification,
        reminder: event.reminder,
        escalation: event.escalation,
        monitor_id: event.monitor?.id,
        error: event.heartbeat?.error ?? undefined,
        failed_locations: event.failed_locations,
      },
    },
    client: "pulumi-uptime",
  };
}

/** Alert API create: the incident's alias, so the close (and Opsgenie's de-duplication) finds it. */
function opsgenieAlert(config: Record<string, string>, event: NotificationEvent): object {
  return {
    message: subjectOf(event).slice(0, 130),
    alias: dedupKey(event),
    description: detailsOf(event).join("\n").slice(0, 15_000),
    priority: event.event === "monitor.down" ? (config.priority ?? "P1") : "P4",
    source: "pulumi-uptime",
    entity: event.monitor?.name,
    tags: ["pulumi-uptime", event.event],
    // Opsgenie's details are a map of strings.
    details: {
      monitor_id: event.monitor?.id ?? "",
      notification: event.notification ?? "trigger",
      ...(event.incident ? { incident_id: event.incident.id } : {}),
      ...(event.reminder !== undefined ? { reminder: String(event.reminder) } : {}),
      ...(event.escalation !== undefined ? { escalation: String(event.escalation) } : {}),
      ...(event.failed_locations?.length ? { failed_locations: event.failed_locations.join(", ") } : {}),
    },
  };
}

/** A Teams workflow message: one Adaptive Card attachment. */
function teamsCard(event: NotificationEvent): object {
  const facts = [
    ...(event.monitor
      ? [
          { title: "Monitor", value: event.monitor.name },
          { title: "Target", value: event.monitor.url ?? "-" },
        ]
      : []),
    { title: "At", value: event.occurred_at },
  ];
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [
            {
              type: "TextBlock",
              size: "Medium",
              weight: "Bolder",
              wrap: true,
              text: subjectOf(event),
              color: COLOURS[event.event]?.[1] ?? "default",
            },
            ...detailsOf(event).map((text) => ({ type: "TextBlock", wrap: true, text })),
            { type: "FactSet", facts },
          ],
        },
      },
    ],
  };
}

/** A Discord webhook message: one embed within Discord's length limits. */
function discordMessage(event: NotificationEvent): object {
  const description = detailsOf(event).join("\n").slice(0, 4096);
  return {
    username: "pulumi-uptime",
    embeds: [
      {
        title: subjectOf(event).slice(0, 256),
        ...(description ? { description } : {}),
        color: COLOURS[event.event]?.[0] ?? 0,
        timestamp: event.occurred_at,
        ...(event.monitor
          ? { fields: [{ name: "Monitor", value: event.monitor.name.slice(0, 1024), inline: true }] }
          : {}),
      },
    ],
  };
}
