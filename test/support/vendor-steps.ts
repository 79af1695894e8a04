import type { Vendor, VendorReceiver, VendorRequest } from "../../server/testing";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- vendor payloads read as JSON

/** The two channels of each vendor a sequence test uses: the monitor's own, and the one an escalation reaches. */
export type Who = "primary" | "oncall";

/** What one vendor request was, read back from the vendor's own payload. */
export interface Step {
  who: Who;
  /** `trigger`, `reminder#n`, `escalation#n` or `resolve`. */
  step: string;
  /** The incident it belongs to: PagerDuty's dedup key, Opsgenie's alias, or the id in a chat message. */
  incident: string | undefined;
}

/** Every vendor, PagerDuty first. */
export const VENDORS: Vendor[] = ["pagerduty", "opsgenie", "teams", "discord", "telegram"];

const ROUTING = { primary: "Primary0Key00000000000000000000a", oncall: "Oncall00Key00000000000000000000b" };
const CHAT = { primary: "-100111", oncall: "-100222" };

/** A channel's config of `vendor` on the receiver, one per `who` (each with its own key, URL or chat). */
export function vendorConfig(v: VendorReceiver, vendor: Vendor, who: Who): Json {
  switch (vendor) {
    case "pagerduty":
      return { routing_key: ROUTING[who], api_url: v.url };
    case "opsgenie":
      return { api_key: `${who}-genie-key-0123456789`, region: "eu", api_url: v.url };
    case "teams":
      return {
        webhook_url: `${v.url}/workflows/${who}/triggers/manual/paths/invoke?api-version=2016-06-01&sv=1.0&sig=SIG-${who}`,
      };
    case "discord":
      return { webhook_url: `${v.url}/api/webhooks/123456789012345678/${who}-token` };
    case "telegram":
      return { bot_token: "123456789:AAH-bot-token-secret-0123456789abcdef", chat_id: CHAT[who], api_url: v.url };
  }
}

/** The text a chat vendor shows: the Teams card's text blocks, the Discord embed, the Telegram message. */
function chatText(vendor: Vendor, body: Json): string {
  if (vendor === "teams")
    return (body.attachments[0].content.body as Json[])
      .filter((b) => b.type === "TextBlock")
      .map((b) => b.text)
      .join("\n");
  if (vendor === "discord") return `${body.embeds[0].title}\n${body.embeds[0].description ?? ""}`;
  return body.text;
}

/** A chat message's step, from its words: "is up again", "· reminder 2", "· escalation step 1". */
function chatStep(text: string): string {
  if (text.includes("is up again")) return "resolve";
  const n = /· (reminder|escalation step) (\d+)/.exec(text);
  if (!n) return "trigger";
  const kind = n[1] === "reminder" ? "reminder" : "escalation";
  // The subject says it too (what people read first).
  return text.startsWith(kind === "reminder" ? "Reminder: " : "Escalation: ")
    ? `${kind}#${n[2]}`
    : `mislabelled ${kind}#${n[2]}`;
}

/** What a request to `vendor` was: whose channel, which step, which incident. */
export function stepOf(vendor: Vendor, r: VendorRequest): Step {
  const body = (r.body ?? {}) as Json;
  const strip = (key: string | undefined) => key?.replace(/^pulumi-uptime-/, "");
  switch (vendor) {
    case "pagerduty": {
      const d = body.payload?.custom_details ?? {};
      const n = d.reminder ?? d.escalation;
      const step = body.event_action === "resolve" ? "resolve" : `${d.notification}${n === undefined ? "" : `#${n}`}`;
      return {
        who: body.routing_key === ROUTING.primary ? "primary" : "oncall",
        step,
        incident: strip(body.dedup_key),
      };
    }
    case "opsgenie": {
      const who = (r.headers.authorization ?? "").includes("primary") ? "primary" : "oncall";
      const close = /^\/v2\/alerts\/([^/]+)\/close/.exec(r.path);
      if (close) return { who, step: "resolve", incident: strip(decodeURIComponent(close[1] as string)) };
      const d = body.details ?? {};
      const n = d.reminder ?? d.escalation;
      return { who, step: `${d.notification}${n === undefined ? "" : `#${n}`}`, incident: strip(body.alias) };
    }
    default: {
      const who =
        vendor === "telegram"
          ? body.chat_id === CHAT.primary
            ? "primary"
            : "oncall"
          : r.path.includes("primary")
            ? "primary"
            : "oncall";
      const text = chatText(vendor, body);
      return { who, step: chatStep(text), incident: /Incident (\S+)/.exec(text)?.[1] };
    }
  }
}
