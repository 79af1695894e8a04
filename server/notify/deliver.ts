import type { Dispatcher } from "undici";
import { request } from "undici";
import { assertTargetAllowed } from "../outbound";
import type { Store } from "../store";
import type { StoredChannel } from "../store/channels";
import { type NotificationEvent, withoutCredentials } from "../notification-event";
import { subjectOf } from "./event";
import { SecretMask } from "../secret-mask";
import { vendorRequest } from "./vendors";

export type { NotificationEvent } from "../notification-event";

/** What a delivery achieved: for `channels/<id>/test` and the notifier's log. */
export interface DeliveryResult {
  status_code: number | null;
  response_time_ms: number;
}

/**
 * A failed delivery, with a reason safe to show (never the URL, which carries tokens).
 * `permanent`: the receiver refused the request itself (a 4xx other than 408 and 429), so the
 * same request would be refused again: it is not retried.
 */
export class DeliveryError extends Error {
  readonly code = "delivery_failed";
  constructor(
    message: string,
    readonly permanent = false,
    readonly statusCode: number | null = null,
  ) {
    super(message);
  }
}

/** Sends an email; set when the server has an SMTP URL. */
export type SendMail = (message: {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
}) => Promise<unknown>;

export interface DeliveryContext {
  store: Store;
  sendMail?: SendMail;
  dispatcher: Dispatcher;
  allowPrivate: boolean;
  accountId: string;
  timeoutMs?: number;
}

/**
 * Delivers one event to one channel: email (sent, or recorded in the outbox), or the request of
 * the channel's type (vendors.ts) under the outbound policy.
 */
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
        await ctx.sendMail({
          to: config.address as string,
          subject: subjectOf(event),
          text: JSON.stringify(event, null, 2),
        });
      } catch (err) {
        throw new DeliveryError(`SMTP server refused the message: ${configMask(config).mask((err as Error).message)}`);
      }
      return { status_code: null, response_time_ms: elapsed() };
    }
    await ctx.store.outbox.add({
      account_id: ctx.accountId,
      channel_id: channel.id,
      recipient: config.address as string,
      subject: subjectOf(event),
      body: JSON.stringify(event, null, 2),
    });
    return { status_code: null, response_time_ms: elapsed() };
  }
  const { url, headers, body } = vendorRequest(channel.type, config, event);
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
    const answer = await readSome(res.body);
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const permanent =
        res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 408 && res.statusCode !== 429;
      const why = vendorReason(answer, config);
      throw new DeliveryError(
        `receiver at ${url.host} answered HTTP ${res.statusCode}${why ? `: ${why}` : ""}`,
        permanent,
        res.statusCode,
      );
    }
    return { status_code: res.statusCode, response_time_ms: elapsed() };
  } catch (err) {
    if (err instanceof DeliveryError) throw err;
    throw new DeliveryError(`could not reach ${url.host}: ${configMask(config).mask((err as Error).message)}`);
  }
}

/** The masker of a channel's secrets: its config values of 8 characters or more, in every spelling. */
const configMask = (config: Record<string, string>) =>
  new SecretMask(Object.values(config).filter((v) => v.length >= 8));

/** The first 4 KiB of an answer (a vendor's error is short; a larger body is not read whole). */
async function readSome(body: Dispatcher.ResponseData["body"]): Promise<string> {
  let text = "";
  for await (const chunk of body) {
    text += (chunk as Buffer).toString("utf8");
    if (text.length >= 4096) {
      body.destroy();
      break;
    }
  }
  return text.slice(0, 4096);
}

/**
 * The reason a vendor gave for refusing: Telegram's `description`, the `message` (and `errors`)
 * of PagerDuty, Opsgenie and Discord, or the start of a plain answer. The channel's own secrets
 * are blanked in case a receiver echoes them.
 */
export function vendorReason(answer: string, config: Record<string, string>): string {
  let reason = answer.trim();
  try {
    const json = JSON.parse(answer) as Record<string, unknown>;
    const main = json.description ?? json.message ?? json.error ?? json.status;
    const errors = json.errors === undefined ? "" : ` ${JSON.stringify(json.errors)}`;
    if (main !== undefined) reason = `${typeof main === "string" ? main : JSON.stringify(main)}${errors}`;
  } catch {
    // Not JSON: the text as it is.
  }
  reason = configMask(config).mask(reason);
  return reason.replace(/\s+/g, " ").slice(0, 300);
}
