import {
  CHANNEL_CONFIG_SCHEMAS,
  type Channel,
  type ChannelConfig,
  type ChannelTestResult,
  type CreateChannel,
  issuesToDetails,
  type UpdateChannel,
} from "../../api";
import { ApiError, notFound, validationFailed } from "../errors";
import { type DeliveryContext, DeliveryError, deliver } from "../notify/deliver";
import type { Store } from "../store";
import { assertExternalIdFree } from "./external-ids";

export function getChannel(store: Store, accountId: string, id: string): Channel {
  const channel = store.channels.get(accountId, id);
  if (!channel) throw notFound("channel", id);
  return channel;
}

export function createChannel(store: Store, accountId: string, body: CreateChannel): Channel {
  assertExternalIdFree(store, "channels", accountId, body.external_id);
  return store.channels.create(accountId, body.name, body.type, body.config, body.external_id ?? null);
}

/** PATCH: a new name and/or a whole new config, validated against the channel's type. */
export function updateChannel(store: Store, accountId: string, id: string, body: UpdateChannel): Channel {
  const current = store.channels.stored(accountId, id);
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
  }
  assertExternalIdFree(store, "channels", accountId, body.external_id, id);
  return store.channels.update(accountId, id, body.name ?? current.name, config, body.external_id) as Channel;
}

/** Delivers a `test` event now; a failure is a 502 `delivery_failed` with the reason. */
export async function testChannel(ctx: DeliveryContext, id: string): Promise<ChannelTestResult> {
  const channel = ctx.store.channels.stored(ctx.accountId, id);
  if (!channel) throw notFound("channel", id);
  try {
    const result = await deliver(ctx, channel, { event: "test", occurred_at: new Date().toISOString() });
    return { delivered: true, ...result };
  } catch (err) {
    if (err instanceof DeliveryError)
      throw new ApiError("delivery_failed", `Delivery failed: ${err.message}`);
    throw err;
  }
}
