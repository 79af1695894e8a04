import {
  CHANNEL_CONFIG_SCHEMAS,
  canonicalConfigJson,
  channelEventsConflict,
  type Channel,
  type ChannelConfig,
  type ChannelEvent,
  type ChannelTestResult,
  type CreateChannel,
  type Delivery,
  issuesToDetails,
  type ListQuery,
  resolveChannelEvents,
  type UpdateChannel,
} from "../../api";
import { ApiError, notFound, validationFailed } from "../errors";
import { DeliveryError, deliver } from "../notify/deliver";
import { channelTargetDetails } from "../outbound";
import type { Notifier } from "../notify/notifier";
import type { Store } from "../store";
import type { Principal } from "../store/keys";
import { assertExternalIdFree } from "./external-ids";
import { type ListPage, listPage } from "./paging";

/** Notification channels of an account, and their test deliveries. */
export class ChannelService {
  constructor(
    private readonly store: Store,
    private readonly notifier: Pick<Notifier, "contextFor">,
    /** Whether channels may point at private addresses (`--allow-private-targets`). */
    private readonly allowPrivate: boolean,
  ) {}

  async list(principal: Principal, query: ListQuery): Promise<ListPage<Channel>> {
    return await listPage(async () => await this.store.channels.list(principal.accountId, query.limit, query.cursor));
  }

  async get(principal: Principal, id: string): Promise<Channel> {
    const channel = await this.store.channels.get(principal.accountId, id);
    if (!channel) throw notFound("channel", id);
    return channel;
  }

  async create(principal: Principal, body: CreateChannel): Promise<Channel> {
    checkConfig(body.config, this.allowPrivate);
    const events = eventsOf(body.events, body.notify_degraded, []);
    await assertExternalIdFree(this.store, "channels", principal.accountId, body.external_id);
    return await this.store.channels.create(
      principal.accountId,
      body.name,
      body.type,
      body.config,
      body.external_id ?? null,
      events,
    );
  }

  /** PATCH: a new name and/or a whole new config, validated against the channel's type. */
  async update(principal: Principal, id: string, body: UpdateChannel): Promise<Channel> {
    const current = await this.store.channels.stored(principal.accountId, id);
    if (!current) throw notFound("channel", id);
    let config: ChannelConfig = current.config;
    if (body.config !== undefined) {
      const parsed = CHANNEL_CONFIG_SCHEMAS[current.type].safeParse(body.config);
      if (!parsed.success) {
        throw validationFailed(
          issuesToDetails(parsed.error.issues).map((d) => ({
            ...d,
            field: `config.${d.field}`.replace(/\.body$/, ""),
          })),
        );
      }
      config = parsed.data as ChannelConfig;
      checkConfig(config, this.allowPrivate);
    }
    await assertExternalIdFree(this.store, "channels", principal.accountId, body.external_id, id);
    const name = body.name ?? current.name;
    // A PATCH that changes nothing writes nothing: `updated_at` stays, so a client that rewrites
    // a config it cannot read back (reads mask it) leaves no trace when the value was already held.
    const externalId = body.external_id === undefined ? current.external_id : body.external_id;
    const events = eventsOf(body.events, body.notify_degraded, current.events);
    if (
      name === current.name &&
      externalId === current.external_id &&
      events.join() === current.events.join() &&
      canonicalConfigJson(config) === canonicalConfigJson(current.config)
    ) {
      return (await this.store.channels.get(principal.accountId, id)) as Channel;
    }
    return (await this.store.channels.update(
      principal.accountId,
      id,
      name,
      config,
      body.external_id,
      events,
    )) as Channel;
  }

  async delete(principal: Principal, id: string): Promise<Channel> {
    const channel = await this.store.channels.delete(principal.accountId, id);
    if (!channel) throw notFound("channel", id);
    return channel;
  }

  /** The channel's latest notifications and how they ended, newest first. */
  async deliveries(principal: Principal, id: string): Promise<Delivery[]> {
    if (!(await this.store.channels.get(principal.accountId, id))) throw notFound("channel", id);
    return await this.store.alerts.forChannel(id);
  }

  /** Delivers a `test` event now; a failure is a 502 `delivery_failed` with the reason. */
  async test(principal: Principal, id: string): Promise<ChannelTestResult> {
    const channel = await this.store.channels.stored(principal.accountId, id);
    if (!channel) throw notFound("channel", id);
    const event = { event: "test" as const, occurred_at: new Date().toISOString() };
    try {
      const result = await deliver(this.notifier.contextFor(principal.accountId), channel, event);
      return { delivered: true, ...result };
    } catch (err) {
      if (err instanceof DeliveryError) throw new ApiError("delivery_failed", `Delivery failed: ${err.message}`);
      throw err;
    }
  }
}

/**
 * The events a write leaves the channel with. `events` wins; `notify_degraded` alone adds or
 * removes `degraded` (from the current events on a PATCH, from the default on a create); both
 * given must agree.
 */
function eventsOf(
  events: readonly ChannelEvent[] | undefined,
  notifyDegraded: boolean | undefined,
  current: readonly ChannelEvent[],
): ChannelEvent[] {
  if (events !== undefined) {
    const conflict = channelEventsConflict(events, notifyDegraded);
    if (conflict) throw validationFailed([{ field: "notify_degraded", message: conflict }]);
    return resolveChannelEvents(events, undefined);
  }
  if (current.length === 0) return resolveChannelEvents(undefined, notifyDegraded);
  if (notifyDegraded === undefined) return [...current];
  const rest = current.filter((e) => e !== "degraded");
  return resolveChannelEvents(notifyDegraded ? [...rest, "degraded"] : rest, undefined);
}

/** RFC 5321 limits the part of an address before the `@` to 64 characters. */
const MAX_LOCAL_PART = 64;

/** Rules of a config beyond its schema: an email address a mail server would accept. */
function checkConfig(config: ChannelConfig, allowPrivate: boolean): void {
  const targets = channelTargetDetails(config, allowPrivate);
  if (targets.length) throw validationFailed(targets);
  if (!("address" in config)) return;
  const local = config.address.slice(0, config.address.lastIndexOf("@"));
  if (local.length > MAX_LOCAL_PART) {
    throw validationFailed([
      { field: "config.address", message: `must have at most ${MAX_LOCAL_PART} characters before the @` },
    ]);
  }
}
