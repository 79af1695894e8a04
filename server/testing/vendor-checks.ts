/**
 * What each vendor documents about the requests it accepts, as checks: each returns the problems
 * of a request (empty when the vendor would take it). Used by the vendor receiver (vendors.ts).
 * Sources: PagerDuty Events API v2 (`/v2/enqueue`), Opsgenie Alert API (`/v2/alerts`), Microsoft
 * Teams workflows (Adaptive Card attachments), Discord "Execute Webhook", Telegram Bot API `sendMessage`.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number) => typeof v === "string" && v.length > 0 && v.length <= max;

/** PagerDuty: routing key, action, dedup key, and for a trigger the payload's summary, source and severity. */
export function pagerDutyProblems(body: unknown): string[] {
  if (!isObject(body)) return ["body must be a JSON object"];
  const out: string[] = [];
  if (typeof body.routing_key !== "string" || !/^[A-Za-z0-9]{32}$/.test(body.routing_key))
    out.push("routing_key must be a 32-character integration key");
  if (!["trigger", "acknowledge", "resolve"].includes(body.event_action as string))
    out.push("event_action must be trigger, acknowledge or resolve");
  if (body.dedup_key !== undefined && !text(body.dedup_key, 255)) out.push("dedup_key must be 1..255 characters");
  if (body.event_action !== "trigger") {
    if (body.dedup_key === undefined) out.push("dedup_key is required to acknowledge or resolve");
    return out;
  }
  const p = body.payload;
  if (!isObject(p)) return [...out, "payload is required for a trigger"];
  if (!text(p.summary, 1024)) out.push("payload.summary must be 1..1024 characters");
  if (!text(p.source, 255)) out.push("payload.source is required");
  if (!["critical", "error", "warning", "info"].includes(p.severity as string))
    out.push("payload.severity must be critical, error, warning or info");
  if (p.timestamp !== undefined && Number.isNaN(Date.parse(p.timestamp as string)))
    out.push("payload.timestamp must be ISO 8601");
  return out;
}

/** Opsgenie create: message (≤130), alias (≤512), priority P1..P5, details a map of strings. */
export function opsgenieCreateProblems(body: unknown): string[] {
  if (!isObject(body)) return ["Request body must be a JSON object."];
  const out: string[] = [];
  if (!text(body.message, 130)) out.push("Message can not be empty and must be at most 130 characters.");
  if (body.alias !== undefined && !text(body.alias, 512)) out.push("Alias must be at most 512 characters.");
  if (body.description !== undefined && (typeof body.description !== "string" || body.description.length > 15_000))
    out.push("Description must be at most 15000 characters.");
  if (body.priority !== undefined && !/^P[1-5]$/.test(body.priority as string))
    out.push("Priority should be one of [P1, P2, P3, P4, P5].");
  if (body.tags !== undefined && !(Array.isArray(body.tags) && body.tags.every((t) => typeof t === "string")))
    out.push("Tags must be strings.");
  if (
    body.details !== undefined &&
    !(isObject(body.details) && Object.values(body.details).every((v) => typeof v === "string"))
  )
    out.push("Details must be a map of strings.");
  return out;
}

/** A Teams workflow message: `type: message` with Adaptive Card attachments. */
export function teamsProblems(body: unknown): string[] {
  if (!isObject(body)) return ["body must be a JSON object"];
  const out: string[] = [];
  if (body.type !== "message") out.push('type must be "message"');
  const attachments = body.attachments;
  if (!Array.isArray(attachments) || attachments.length === 0)
    return [...out, "attachments must hold an Adaptive Card"];
  attachments.forEach((a, i) => {
    if (!isObject(a) || a.contentType !== "application/vnd.microsoft.card.adaptive")
      out.push(`attachments[${i}].contentType must be application/vnd.microsoft.card.adaptive`);
    const card = isObject(a) ? a.content : undefined;
    if (!isObject(card) || card.type !== "AdaptiveCard")
      return void out.push(`attachments[${i}].content.type must be AdaptiveCard`);
    if (typeof card.version !== "string" || !/^1\.[0-6]$/.test(card.version))
      out.push(`attachments[${i}].content.version must be 1.0..1.6`);
    if (!Array.isArray(card.body) || card.body.some((el) => !isObject(el) || typeof el.type !== "string"))
      out.push(`attachments[${i}].content.body must be a list of elements with a type`);
  });
  return out;
}

/** Discord: content or embeds; at most 10 embeds within Discord's limits. */
export function discordProblems(body: unknown): string[] {
  if (!isObject(body)) return ["body must be a JSON object"];
  const out: string[] = [];
  const embeds = body.embeds;
  if (body.content === undefined && embeds === undefined) out.push("Cannot send an empty message");
  if (body.content !== undefined && (typeof body.content !== "string" || body.content.length > 2000))
    out.push("content: Must be 2000 or fewer in length.");
  if (embeds !== undefined) {
    if (!Array.isArray(embeds) || embeds.length > 10) return [...out, "embeds: Must be 10 or fewer in length."];
    embeds.forEach((e, i) => {
      if (!isObject(e)) return void out.push(`embeds.${i}: Must be an object`);
      if (e.title !== undefined && !text(e.title, 256)) out.push(`embeds.${i}.title: Must be 256 or fewer in length.`);
      if (e.description !== undefined && !text(e.description, 4096))
        out.push(`embeds.${i}.description: Must be 4096 or fewer in length.`);
      if (
        e.color !== undefined &&
        !(Number.isInteger(e.color) && (e.color as number) >= 0 && (e.color as number) <= 0xffffff)
      )
        out.push(`embeds.${i}.color: Must be between 0 and 16777215.`);
      if (e.timestamp !== undefined && Number.isNaN(Date.parse(e.timestamp as string)))
        out.push(`embeds.${i}.timestamp: Could not parse.`);
      if (
        e.fields !== undefined &&
        (!Array.isArray(e.fields) ||
          e.fields.length > 25 ||
          e.fields.some((f) => !isObject(f) || !text(f.name, 256) || !text(f.value, 1024)))
      ) {
        out.push(`embeds.${i}.fields: Must be 25 or fewer, each with a name (≤256) and a value (≤1024).`);
      }
    });
  }
  return out;
}

/** Telegram sendMessage: a chat id and 1..4096 characters of text. */
export function telegramProblems(body: unknown): string[] {
  if (!isObject(body)) return ["Bad Request: message text is empty"];
  const out: string[] = [];
  const chat = body.chat_id;
  if (!(Number.isInteger(chat) || (typeof chat === "string" && /^(-?\d+|@[A-Za-z][A-Za-z0-9_]{4,31})$/.test(chat))))
    out.push("Bad Request: chat not found");
  if (typeof body.text !== "string" || body.text.length === 0) out.push("Bad Request: message text is empty");
  else if (body.text.length > 4096) out.push("Bad Request: message is too long");
  return out;
}
