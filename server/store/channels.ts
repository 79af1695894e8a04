import type { Executor } from "./sql/executor";
import {
  type Channel,
  type ChannelConfig,
  type ChannelEvent,
  type ChannelType,
  canonicalConfigJson,
  PLAIN_CONFIG_KEYS,
  resolveChannelEvents,
  URL_CONFIG_KEYS,
} from "../../api";
import type { SecretBox } from "../secrets";
import { newId, nowIso } from "./ids";
import { AccountObjects } from "./account-objects";
import { givenParams, keptUnlessGiven } from "./sql/kept-unless-given";

interface ChannelRow {
  id: string;
  account_id: string;
  name: string;
  type: ChannelType;
  config: string;
  external_id: string | null;
  notify_degraded: number;
  events: string | null;
  created_at: string;
  updated_at: string;
}

/** A channel with its config in clear: for delivery only, never for a response. */
export interface StoredChannel extends Omit<Channel, "config" | "config_fingerprint"> {
  config: ChannelConfig;
}

/**
 * Notification channels. Configs are stored sealed (AES-256-GCM under the server key), opened
 * for delivery, and masked on reads.
 */
export class ChannelRepository extends AccountObjects<ChannelRow, Channel> {
  constructor(
    db: Executor,
    private readonly secrets: SecretBox,
    /** Told when monitors' channel links changed (a deleted channel leaves every monitor naming it). */
    private readonly linksChanged: () => void = () => undefined,
  ) {
    super(db, "channels");
  }

  /** The channel with its secrets, for delivering an event. */
  async stored(accountId: string, id: string): Promise<StoredChannel | undefined> {
    const row = await this.row(accountId, id);
    return row ? { ...this.item(row), config: this.config(row) } : undefined;
  }

  /** The clear channels linked to a monitor, for notifications. */
  async forMonitor(monitorId: string): Promise<StoredChannel[]> {
    const rows = (await this.db
      .prepare(
        "SELECT c.* FROM channels c JOIN monitor_channels mc ON mc.channel_id = c.id WHERE mc.monitor_id = ? ORDER BY c.id",
      )
      .all(monitorId)) as unknown as ChannelRow[];
    return rows.map((row) => ({ ...this.item(row), config: this.config(row) }));
  }

  async create(
    accountId: string,
    name: string,
    type: ChannelType,
    config: ChannelConfig,
    externalId: string | null = null,
    events: readonly ChannelEvent[] = resolveChannelEvents(undefined, false),
  ): Promise<Channel> {
    const id = newId("chn");
    const now = nowIso();
    await this.db
      .prepare(
        "INSERT INTO channels (id, account_id, name, type, config, external_id, notify_degraded, events, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        id,
        accountId,
        name,
        type,
        this.secrets.seal(JSON.stringify(config)),
        externalId,
        events.includes("degraded") ? 1 : 0,
        JSON.stringify(events),
        now,
        now,
      );
    return (await this.get(accountId, id)) as Channel;
  }

  /** Stores a new name, config and events; `externalId` undefined keeps the current value. */
  async update(
    accountId: string,
    id: string,
    name: string,
    config: ChannelConfig,
    externalId: string | null | undefined,
    events: readonly ChannelEvent[],
  ): Promise<Channel | undefined> {
    await this.db
      .prepare(
        `UPDATE channels SET name = ?, config = ?, ${keptUnlessGiven("external_id")}, notify_degraded = ?, events = ?, updated_at = ? WHERE id = ? AND account_id = ?`,
      )
      .run(
        name,
        this.secrets.seal(JSON.stringify(config)),
        ...givenParams(externalId),
        events.includes("degraded") ? 1 : 0,
        JSON.stringify(events),
        nowIso(),
        id,
        accountId,
      );
    return await this.get(accountId, id);
  }

  /** Deletes the channel; monitors that named it no longer do. */
  override async delete(accountId: string, id: string): Promise<Channel | undefined> {
    const channel = await super.delete(accountId, id);
    this.linksChanged();
    return channel;
  }

  /** Reseals configs not sealed under the current key (older rows, a key rotation). */
  async reseal(): Promise<number> {
    const rows = (await this.db.prepare("SELECT id, config FROM channels").all()) as { id: string; config: string }[];
    const update = this.db.prepare("UPDATE channels SET config = ? WHERE id = ?");
    const stale = rows.filter((row) => !this.secrets.isCurrent(row.config));
    for (const row of stale) await update.run(this.secrets.seal(this.secrets.open(row.config)), row.id);
    return stale.length;
  }

  private config(row: ChannelRow): ChannelConfig {
    return JSON.parse(this.secrets.open(row.config)) as ChannelConfig;
  }

  protected item(row: ChannelRow): Channel {
    const config = this.config(row) as Record<string, string>;
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      config: maskConfig(config),
      // Keyed, so a response cannot be used to test guesses of a token; the MAC key comes from the
      // key file's oldest key, so a `keys rotate-secret` keeps fingerprints until that key is dropped.
      config_fingerprint: this.secrets.mac(`channel-config\0${row.id}\0${canonicalConfigJson(config)}`),
      external_id: row.external_id,
      notify_degraded: row.notify_degraded === 1,
      // Rows written before `events` existed hear what `notify_degraded` said.
      events:
        row.events === null
          ? resolveChannelEvents(undefined, row.notify_degraded === 1)
          : (JSON.parse(row.events) as ChannelEvent[]),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}

/**
 * URLs keep their origin only (their paths and queries carry tokens); plain settings (an address,
 * a severity, a chat id, a vendor base URL) show as they are; everything else becomes `****`.
 */
export function maskConfig(config: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (PLAIN_CONFIG_KEYS.has(key)) out[key] = value;
    else if (URL_CONFIG_KEYS.has(key)) out[key] = `${new URL(value).origin}/****`;
    else out[key] = "****";
  }
  return out;
}
