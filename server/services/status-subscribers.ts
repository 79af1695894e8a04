import { createHmac } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { type Dispatcher, request } from "undici";
import type { Incident, StatusPage, Subscribe } from "../../api";
import { ApiError, validationFailed } from "../errors";
import type { SendMail } from "../notify/deliver";
import { assertTargetAllowed } from "../outbound";
import type { Store } from "../store";
import type { SubscriberRow } from "../store/status-subscribers";
import type { IncidentEvent } from "./status-incidents";

const HOUR_MS = 3_600_000;

/** What the subscriber service needs beyond the store. */
export interface SubscriberContext {
  store: Store;
  sendMail?: SendMail;
  dispatcher: Dispatcher;
  allowPrivate: boolean;
  /** Requests per address per hour. */
  limitPerHour: number;
  /** The base URL links in mails point at (`https://status.example.com`), per page. */
  baseUrl: (page: StatusPage) => string;
  log: FastifyBaseLogger;
  /** Delays before each new attempt of a notice that failed, in milliseconds (`notifyRetryDelaysMs`). */
  retryDelaysMs: readonly number[];
}

/** A short, neutral answer: the same whether or not the address was subscribed before. */
export const SUBSCRIBE_ANSWER =
  "If the address can be subscribed, a confirmation is on its way (a webhook is subscribed at once).";

/**
 * Subscribers of status pages: email (double opt-in, an unsubscribe link in every mail) and
 * signed webhooks. Each is told once of each incident update and of each maintenance start; a
 * notice that fails (the relay or the receiver refuses it, or does not answer) is tried again
 * after each of `retryDelaysMs`, while the subscriber is still subscribed, then given up and
 * logged. The retries wait in this process: a restart ends them.
 */
export class StatusSubscriberService {
  /** Notices waiting for their next attempt. */
  private readonly retries = new Set<NodeJS.Timeout>();

  constructor(private readonly ctx: SubscriberContext) {}

  /** Gives up the notices waiting for a retry (the server closes). */
  close(): void {
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
  }

  /** A subscription request for the page; never says whether the address was subscribed. */
  async subscribe(page: StatusPage, body: Subscribe, client: string): Promise<string> {
    const keys = new Set(page.sections.flatMap((s) => s.components.map((c) => c.key)));
    const unknown = (body.components ?? []).map((k, i) => [k, i] as const).filter(([k]) => !keys.has(k));
    if (unknown.length)
      throw validationFailed(
        unknown.map(([k, i]) => ({ field: `components[${i}]`, message: `no component "${k}" on the page` })),
      );
    const address = body.email?.toLowerCase() ?? (body.webhook as string);
    for (const key of [`subscribe:${page.id}:${address}`, `subscribe:${page.id}:client:${client}`]) {
      const { count, resetAt } = await this.ctx.store.rateCounters.increment(key, HOUR_MS);
      if (count > this.ctx.limitPerHour)
        throw new ApiError(
          "rate_limited",
          `Too many subscription requests; try again in ${Math.ceil((resetAt - Date.now()) / 1000)} s`,
        );
    }
    if (body.webhook) assertTargetAllowed(new URL(body.webhook), this.ctx.allowPrivate);
    const { row, confirm } = await this.ctx.store.statusSubscribers.request(page.id, {
      kind: body.email ? "email" : "webhook",
      address,
      components: body.components ?? null,
      secret: body.secret ? this.ctx.store.secrets.seal(body.secret) : null,
      confirmed: body.webhook !== undefined,
    });
    if (confirm)
      await this.mail(page, row, `Confirm your subscription to ${page.title}`, [
        `Someone (hopefully you) asked to be told by email when ${page.title} has an incident or maintenance.`,
        "",
        `Confirm: ${this.link(page, "confirm", row.token)}`,
        "",
        "If it was not you, ignore this mail: nothing is sent without the confirmation.",
      ]);
    return SUBSCRIBE_ANSWER;
  }

  async confirm(page: StatusPage, token: string): Promise<boolean> {
    const row = await this.ctx.store.statusSubscribers.confirm(page.id, token);
    return row !== undefined && row.unsubscribed_at === null;
  }

  async unsubscribe(page: StatusPage, token: string): Promise<boolean> {
    return await this.ctx.store.statusSubscribers.unsubscribe(page.id, token);
  }

  /** Tells every follower of the affected components about the incident's latest update. */
  async incident(page: StatusPage, incident: Incident, event: IncidentEvent): Promise<void> {
    const update = incident.updates[0];
    if (!update) return;
    const affected = Object.keys(incident.components);
    const subject = `[${page.title}] ${event === "opened" ? "Incident" : event === "resolved" ? "Resolved" : "Update"}: ${incident.title}`;
    const payload = {
      event: `incident.${event}`,
      page: { slug: page.slug, title: page.title },
      incident: {
        id: incident.id,
        title: incident.title,
        state: incident.state,
        components: incident.components,
        url: `${this.ctx.baseUrl(page)}/status/${page.slug}/incidents/${incident.id}`,
      },
      update: { state: update.state, message: update.message, created_at: update.created_at },
    };
    const text = [`${incident.title}: ${update.state}`, "", update.message, "", `Details: ${payload.incident.url}`];
    await this.fanOut(page, `${incident.id}/${update.id}`, affected, subject, text, payload);
  }

  /** Tells every follower of the page that a maintenance window started. */
  async maintenanceStarted(
    page: StatusPage,
    window: { id: string; name: string; starts_at: string; ends_at: string },
    occurrence: string,
  ): Promise<void> {
    const subject = `[${page.title}] Maintenance started: ${window.name}`;
    const payload = {
      event: "maintenance.started",
      page: { slug: page.slug, title: page.title },
      maintenance: { name: window.name, starts_at: occurrence, ends_at: window.ends_at },
    };
    await this.fanOut(
      page,
      `${window.id}/${occurrence}`,
      [],
      subject,
      [`${window.name} started at ${occurrence}.`],
      payload,
    );
  }

  private async fanOut(
    page: StatusPage,
    what: string,
    affected: readonly string[],
    subject: string,
    text: string[],
    payload: object,
  ): Promise<void> {
    for (const row of await this.ctx.store.statusSubscribers.active(page.id)) {
      const only = row.components === null ? null : (JSON.parse(row.components) as string[]);
      if (only !== null && affected.length > 0 && !affected.some((k) => only.includes(k))) continue;
      if (!(await this.ctx.store.statusSubscribers.claimNotice(row.id, `${row.id}/${what}`))) continue;
      await this.deliver(
        page,
        row,
        () => (row.kind === "email" ? this.mail(page, row, subject, text) : this.post(row, payload)),
        0,
      );
    }
  }

  /** One attempt of a notice; when it fails, the next is scheduled after the attempt's delay. */
  private async deliver(
    page: StatusPage,
    row: SubscriberRow,
    send: () => Promise<void>,
    attempt: number,
  ): Promise<void> {
    try {
      await send();
      return;
    } catch (err) {
      const delay = this.ctx.retryDelaysMs[attempt];
      const context = { err: (err as Error).message, page: page.slug, subscriber: row.id, attempt: attempt + 1 };
      if (delay === undefined) {
        this.ctx.log.warn(context, "status page notice not delivered: no attempt left");
        return;
      }
      this.ctx.log.info({ ...context, retryInMs: delay }, "status page notice not delivered yet: trying again");
    }
    const timer = setTimeout(() => {
      this.retries.delete(timer);
      void this.retry(page, row, send, attempt + 1);
    }, this.ctx.retryDelaysMs[attempt]);
    timer.unref();
    this.retries.add(timer);
  }

  /** A later attempt, if the subscriber is still subscribed. */
  private async retry(page: StatusPage, row: SubscriberRow, send: () => Promise<void>, attempt: number): Promise<void> {
    try {
      if (!(await this.ctx.store.statusSubscribers.active(page.id)).some((r) => r.id === row.id)) return;
      await this.deliver(page, row, send, attempt);
    } catch (err) {
      this.ctx.log.warn(
        { err: (err as Error).message, page: page.slug, subscriber: row.id },
        "status page notice not retried",
      );
    }
  }

  private link(page: StatusPage, action: "confirm" | "unsubscribe", token: string): string {
    return `${this.ctx.baseUrl(page)}/status/${page.slug}/${action}?code=${encodeURIComponent(token)}`;
  }

  private async mail(page: StatusPage, row: SubscriberRow, subject: string, lines: string[]): Promise<void> {
    if (!this.ctx.sendMail) {
      this.ctx.log.warn({ page: page.slug }, "status page mail not sent: the server has no smtpUrl");
      return;
    }
    const unsubscribe = this.link(page, "unsubscribe", row.token);
    await this.ctx.sendMail({
      to: row.address,
      subject,
      text: [...lines, "", `Unsubscribe: ${unsubscribe}`].join("\n"),
      headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
  }

  private async post(row: SubscriberRow, payload: object): Promise<void> {
    const url = new URL(row.address);
    assertTargetAllowed(url, this.ctx.allowPrivate);
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "pulumi-uptime-server",
      "x-event": (payload as { event: string }).event,
    };
    if (row.secret)
      headers["x-signature"] =
        `sha256=${createHmac("sha256", this.ctx.store.secrets.open(row.secret)).update(body).digest("hex")}`;
    const res = await request(url, {
      method: "POST",
      body,
      headers,
      dispatcher: this.ctx.dispatcher,
      signal: AbortSignal.timeout(10_000),
    });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw new Error(`receiver at ${url.host} answered HTTP ${res.statusCode}`);
  }
}
