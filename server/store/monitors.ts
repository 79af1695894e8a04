import type { Executor } from "./sql/executor";
import { LRUCache } from "lru-cache";
import {
  ASSERTION_DEFAULTS,
  type Monitor,
  BROWSER_SCRIPT_FIELD,
  MONITOR_EXTENSION_DEFAULTS,
  MONITOR_NETWORK_DEFAULTS,
  GRPC_SERVICE_FIELD,
  type MonitorSpec,
} from "../../api";
import type { SecretBox } from "../secrets";
import type { CheckedRow } from "./health";
import type { ExternalCommits } from "./sql/database";
import type { Dialect } from "./sql/dialect";
import { nowIso } from "./ids";
import { Links } from "./links";
import { afterCursor, type Page, toPage } from "./pagination";

interface MonitorRow {
  id: string;
  account_id: string;
  spec: string;
  status: Monitor["status"];
  health: Exclude<Monitor["health"], "degraded">;
  /** 1 when the last check was slower than `degraded_response_ms` (health stays `up`). */
  degraded: number;
  last_checked_at: string | null;
  external_id: string | null;
  created_at: string;
  updated_at: string;
  /** JSON array of the linked channels' ids, in id order. */
  channel_ids: string;
}

/** A monitor's row with its channel links, in one query (a GET is one statement, not two). */
const monitorRow = (sql: Dialect) =>
  `SELECT monitors.*, (SELECT ${sql.jsonArrayOf("channel_id")} FROM monitor_channels WHERE monitor_id = monitors.id) AS channel_ids FROM monitors`;

/** What a list of monitors can be filtered by. */
export interface MonitorFilter {
  limit: number;
  cursor?: string;
  tag?: string;
  status?: Monitor["status"];
}

/** A monitor as the checker sees it: every account's. */
export interface ScheduledMonitor extends Monitor {
  account_id: string;
}

/** A monitor as a check reads it: with the specs (JSON texts) of the maintenance windows that name it. */
export interface CheckRead {
  monitor: ScheduledMonitor;
  windows: string[];
}

/** The spec as stored: `url`, `headers`, `body`, `steps` and `variables` (which carry credentials) sealed. */
type StoredSpec = Omit<MonitorSpec, "channel_ids" | "headers" | "steps" | "variables"> & {
  headers: string | Record<string, string>;
  /** Sealed JSON; absent in monitors stored before multi-step monitors. */
  steps?: string;
  variables?: string;
};

/**
 * Monitors, their channel links, and the status/health the checker maintains. The spec is JSON
 * (tags stay queryable); its `url`, `headers` and `body` are sealed under the server key.
 */
export class MonitorRepository {
  /**
   * Monitors read by id, as answered (frozen), until a write to one of them through this store
   * (`forget`), a channel deletion, or a commit by another process empties the entry. A GET of a
   * known monitor then runs no SQL and opens no sealed field.
   */
  private readonly byId = new LRUCache<string, { accountId: string; monitor: Monitor }>({ max: 10_000 });
  /**
   * Each monitor's spec as opened (frozen), with the stored text it was opened from: the checker
   * and the agents' leases read a monitor at every check, and its row changes with every result,
   * but its spec only with an update. Opening sealed fields again each time was most of a read.
   */
  private readonly opened = new LRUCache<string, { text: string; spec: Omit<MonitorSpec, "channel_ids"> }>({
    max: 50_000,
  });

  /** The SELECT of a monitor's row, in this engine's spelling. */
  private readonly row: string;
  /** Each monitor's channels. */
  private readonly channels: Links;

  constructor(
    private readonly db: Executor,
    private readonly secrets: SecretBox,
    commits: ExternalCommits,
  ) {
    this.row = monitorRow(db.dialect);
    this.channels = new Links(db, {
      table: "monitor_channels",
      owner: { table: "monitors", column: "monitor_id" },
      member: { table: "channels", column: "channel_id" },
    });
    // Deleting a channel or an account deletes rows of monitor_channels or monitors with it. A
    // check on another replica (its monitor's health) is announced as that monitor's row.
    commits.subscribe(
      ["monitors", "monitor_channels", "channels", "accounts"],
      () => this.forget(),
      (id) => this.forget(id),
    );
  }

  /**
   * Reads of a monitor under way, by id: a write forgotten while one ran marks it, and its answer
   * (which may predate the write) is not kept.
   */
  private readonly reading = new Map<string, { stale: boolean }[]>();

  /** Drops the cached read of monitor `id`, or of all monitors; every write calls it. */
  forget(id?: string): void {
    if (id === undefined) {
      this.byId.clear();
      for (const reads of this.reading.values()) for (const read of reads) read.stale = true;
    } else {
      this.byId.delete(id);
      for (const read of this.reading.get(id) ?? []) read.stale = true;
    }
  }

  /**
   * A check's write of monitor `id`'s health in the transaction under way (`HealthRepository.apply`).
   * Once it commits, the kept read takes the written values in place, so that a GET of a monitor
   * checked every second stays answered from memory; but only when the kept read is the one kept
   * when the check wrote: any other write to the monitor since (this process's, or another's
   * announced) dropped or replaced it, and then it is dropped. Reads under way when the check wrote
   * or committed are not kept (they may predate the commit). Rolled back, nothing changes.
   */
  checked(id: string, row: CheckedRow): void {
    for (const read of this.reading.get(id) ?? []) read.stale = true;
    const kept = this.byId.peek(id);
    this.db.afterCommit(() => {
      for (const read of this.reading.get(id) ?? []) read.stale = true;
      const now = this.byId.peek(id);
      if (kept === undefined || now !== kept) {
        this.byId.delete(id);
        return;
      }
      const monitor = Object.freeze({
        ...kept.monitor,
        health: row.health === "up" && row.degraded ? "degraded" : row.health,
        last_checked_at: row.last_checked_at,
      });
      this.byId.set(id, { accountId: kept.accountId, monitor });
    });
  }

  async count(accountId: string): Promise<number> {
    return (
      (await this.db.prepare("SELECT COUNT(*) AS n FROM monitors WHERE account_id = ?").get(accountId)) as {
        n: number;
      }
    ).n;
  }

  /**
   * One page of the account's monitors. The page's ids come first (a small read); the monitors
   * among them that a read kept (`byId`) are answered as kept, the others read in one statement
   * and kept in turn. A list repeated while nothing changed runs one small statement and opens no
   * sealed field.
   */
  async list(accountId: string, filter: MonitorFilter): Promise<Page<Monitor>> {
    const after = afterCursor(filter.cursor);
    const where = ["account_id = ?", after.sql];
    const params: (string | number)[] = [accountId, ...after.params];
    if (filter.status) {
      where.push("status = ?");
      params.push(filter.status);
    }
    if (filter.tag) {
      where.push(this.db.dialect.jsonArrayHas("spec", "tags"));
      params.push(filter.tag.toLowerCase());
    }
    const positions = (await this.db
      .prepare(`SELECT id, created_at FROM monitors WHERE ${where.join(" AND ")} ORDER BY created_at, id LIMIT ?`)
      .all(...params, filter.limit + 1)) as { id: string; created_at: string }[];
    return await toPage(positions, filter.limit, (kept) =>
      this.many(
        accountId,
        kept.map((p) => p.id),
      ),
    );
  }

  /** The account's monitor `id`, frozen: callers copy what they change. */
  async get(accountId: string, id: string): Promise<Monitor | undefined> {
    const cached = this.byId.get(id);
    if (cached) return cached.accountId === accountId ? cached.monitor : undefined;
    return (await this.read(accountId, [id], `${this.row} WHERE id = ? AND account_id = ?`, [id, accountId])).get(id);
  }

  /**
   * The account's monitors `ids`, in that order, frozen: those kept as they were kept, the others
   * in one statement. One deleted since its id was read is left out.
   */
  private async many(accountId: string, ids: readonly string[]): Promise<Monitor[]> {
    const found = new Map<string, Monitor>();
    const missing: string[] = [];
    for (const id of ids) {
      const cached = this.byId.get(id);
      if (cached?.accountId === accountId) found.set(id, cached.monitor);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const marks = missing.map(() => "?").join(", ");
      const read = await this.read(accountId, missing, `${this.row} WHERE account_id = ? AND id IN (${marks})`, [
        accountId,
        ...missing,
      ]);
      for (const [id, monitor] of read) found.set(id, monitor);
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /**
   * Reads the rows of `ids` by `sql`, hydrated and frozen, and keeps each in `byId`: only committed
   * rows (no transaction), and none whose monitor a write was announced for while it was read (the
   * row may predate the write).
   */
  private async read(
    accountId: string,
    ids: readonly string[],
    sql: string,
    params: readonly string[],
  ): Promise<Map<string, Monitor>> {
    const reads = new Map(ids.map((id) => [id, { stale: false }]));
    for (const [id, read] of reads) this.reading.set(id, [...(this.reading.get(id) ?? []), read]);
    let rows: MonitorRow[];
    try {
      rows = (await this.db.prepare(sql).all(...params)) as unknown as MonitorRow[];
    } finally {
      for (const [id, read] of reads) {
        const left = (this.reading.get(id) ?? []).filter((r) => r !== read);
        if (left.length > 0) this.reading.set(id, left);
        else this.reading.delete(id);
      }
    }
    const out = new Map<string, Monitor>();
    const committed = !this.db.inTransaction;
    for (const row of rows) {
      const monitor = deepFreeze(this.hydrate([row])[0] as Monitor);
      out.set(row.id, monitor);
      if (committed && reads.get(row.id)?.stale === false) this.byId.set(row.id, { accountId, monitor });
    }
    return out;
  }

  /** Every active monitor of every account, for the checker's schedule. */
  async active(): Promise<ScheduledMonitor[]> {
    const rows = (await this.db.prepare(`${this.row} WHERE status = 'active'`).all()) as unknown as MonitorRow[];
    return this.hydrate(rows).map((m, i) => ({ ...m, account_id: (rows[i] as MonitorRow).account_id }));
  }

  /**
   * What the agents' schedule needs of every active monitor, read without opening a sealed field
   * (a start-up with many monitors decrypts nothing).
   */
  async placements(): Promise<
    { id: string; account_id: string; type: string; interval_sec: number; locations: string[] | null }[]
  > {
    const json = this.db.dialect.jsonMember;
    const rows = (await this.db
      .prepare(
        `SELECT id, account_id, ${json("spec", "type")} AS type, ${json("spec", "interval_sec")} AS interval_sec,
         ${json("spec", "locations")} AS locations FROM monitors WHERE status = 'active'`,
      )
      .all()) as { id: string; account_id: string; type: string; interval_sec: number; locations: string | null }[];
    // PostgreSQL answers every member as text.
    return rows.map((r) => ({
      ...r,
      interval_sec: Number(r.interval_sec),
      locations: r.locations === null ? null : (JSON.parse(r.locations) as string[]),
    }));
  }

  /**
   * An SQL expression: the row of the monitor whose id is the SQL expression `id`, with its channel
   * links and the specs of the maintenance windows that name it, as one JSON text (null when there
   * is no such monitor); `fromCheckRow` reads it. The checker reads a monitor this way for each
   * check, in the statement that takes the check's lease where there is one.
   */
  checkRowSql(id: string): string {
    const { jsonObject, jsonArrayIn } = this.db.dialect;
    const columns = Object.fromEntries(
      [
        "id",
        "account_id",
        "spec",
        "status",
        "health",
        "degraded",
        "last_checked_at",
        "external_id",
        "created_at",
        "updated_at",
      ].map((c) => [c, `m.${c}`]),
    );
    return `(SELECT ${jsonObject({
      ...columns,
      channel_ids: `(SELECT ${jsonArrayIn("channel_id")} FROM monitor_channels WHERE monitor_id = m.id)`,
      windows: `(SELECT ${jsonArrayIn("w.spec")} FROM maintenance_windows w JOIN maintenance_window_monitors l ON l.window_id = w.id WHERE l.monitor_id = m.id)`,
    })} FROM monitors m WHERE m.id = ${id})`;
  }

  /** The monitor and its maintenance windows' specs (JSON texts) in the JSON of `checkRowSql`. */
  fromCheckRow(json: string | null | undefined): CheckRead | undefined {
    if (json === null || json === undefined) return undefined;
    const row = JSON.parse(json) as Omit<MonitorRow, "channel_ids"> & {
      channel_ids: string | string[];
      windows: string | string[];
    };
    // SQLite may give a member array as its text.
    const list = (v: string | string[]) => (typeof v === "string" ? v : JSON.stringify(v));
    const monitor = this.hydrate([{ ...row, channel_ids: list(row.channel_ids) }])[0] as Monitor;
    return {
      monitor: { ...monitor, account_id: row.account_id },
      windows: typeof row.windows === "string" ? (JSON.parse(row.windows) as string[]) : row.windows,
    };
  }

  /** A monitor of any account for a check, with the specs of its maintenance windows, in one statement. */
  async findForCheck(id: string): Promise<CheckRead | undefined> {
    const row = (await this.db.prepare(`SELECT ${this.checkRowSql("?")} AS m`).get(id)) as
      { m: string | null } | undefined;
    return this.fromCheckRow(row?.m);
  }

  /** A monitor of any account, for the checker. */
  async find(id: string): Promise<ScheduledMonitor | undefined> {
    const row = (await this.db.prepare(`${this.row} WHERE id = ?`).get(id)) as MonitorRow | undefined;
    return row ? { ...(this.hydrate([row])[0] as Monitor), account_id: row.account_id } : undefined;
  }

  /** The ids among `ids` that are channels of the account. */
  async existingChannels(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    return await this.channels.existing(accountId, ids);
  }

  async create(accountId: string, spec: MonitorSpec, externalId: string | null = null): Promise<Monitor> {
    const row = { spec: this.specJson(spec), status: "active", health: "pending", external_id: externalId };
    return (await this.get(accountId, await this.channels.create("mon", accountId, row, spec.channel_ids))) as Monitor;
  }

  /** Stores a new spec; `externalId` undefined keeps the current mark. */
  async update(
    accountId: string,
    id: string,
    spec: MonitorSpec,
    externalId?: string | null,
  ): Promise<Monitor | undefined> {
    this.forget(id);
    const kept = { external_id: externalId };
    const changed = await this.channels.update(id, accountId, { spec: this.specJson(spec) }, kept, spec.channel_ids);
    return changed ? await this.get(accountId, id) : undefined;
  }

  /** Pause or resume; a no-op (same `updated_at`) when the monitor is already in that status. */
  async setStatus(accountId: string, id: string, status: Monitor["status"]): Promise<Monitor | undefined> {
    this.forget(id);
    await this.db
      .prepare("UPDATE monitors SET status = ?, updated_at = ? WHERE id = ? AND account_id = ? AND status <> ?", {
        row: 2,
      })
      .run(status, nowIso(), id, accountId, status);
    return await this.get(accountId, id);
  }

  /** Deletes the monitor with its heartbeats, incidents and links; returns it as it was. */
  async delete(accountId: string, id: string): Promise<Monitor | undefined> {
    const monitor = await this.get(accountId, id);
    if (monitor) await this.db.prepare("DELETE FROM monitors WHERE id = ? AND account_id = ?").run(id, accountId);
    this.forget(id);
    this.opened.delete(id);
    return monitor;
  }

  private hydrate(rows: MonitorRow[]): Monitor[] {
    return rows.map((row) => {
      const spec = this.openedSpec(row.id, row.spec);
      return {
        id: row.id,
        // Specs stored before the extension fields existed (0.1.0) read with their defaults.
        ...MONITOR_EXTENSION_DEFAULTS,
        ...ASSERTION_DEFAULTS,
        ...GRPC_SERVICE_FIELD.defaults,
        ...MONITOR_NETWORK_DEFAULTS,
        ...BROWSER_SCRIPT_FIELD.defaults,
        ...spec,
        channel_ids: JSON.parse(row.channel_ids) as string[],
        // Filled in by the service at read time (which checkers are live changes by the second).
        unchecked_locations: [],
        status: row.status,
        health: row.health === "up" && row.degraded ? "degraded" : row.health,
        last_checked_at: row.last_checked_at,
        external_id: row.external_id,
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
    });
  }

  /** Reseals specs whose secrets are not sealed under the current key. */
  async reseal(): Promise<number> {
    this.forget();
    const rows = (await this.db.prepare("SELECT id, spec FROM monitors").all()) as { id: string; spec: string }[];
    const update = this.db.prepare("UPDATE monitors SET spec = ? WHERE id = ?");
    let changed = 0;
    for (const row of rows) {
      const stored = JSON.parse(row.spec) as StoredSpec;
      const sealed = [stored.url, stored.headers, stored.body ?? undefined, stored.steps, stored.variables].every(
        (v) => v === undefined || v === null || (typeof v === "string" && this.secrets.isCurrent(v)),
      );
      if (sealed) continue;
      await update.run(this.specJson({ ...this.openSpec(row.spec), channel_ids: [] }), row.id);
      changed++;
    }
    return changed;
  }

  /** The spec as stored: channel links live in their own table; secrets sealed. */
  private specJson(spec: MonitorSpec): string {
    const { channel_ids: _links, url, headers, body, steps, variables, ...rest } = spec;
    const seal = (value: string) => this.secrets.seal(value);
    return JSON.stringify({
      ...rest,
      url: url === null ? null : seal(url),
      headers: seal(JSON.stringify(headers)),
      body: body === null ? null : seal(body),
      steps: seal(JSON.stringify(steps ?? [])),
      variables: seal(JSON.stringify(variables ?? {})),
    });
  }

  /** The spec stored as `text`, opened once per text (a changed spec is a different text). */
  private openedSpec(id: string, text: string): Omit<MonitorSpec, "channel_ids"> {
    const hit = this.opened.get(id);
    if (hit?.text === text) return hit.spec;
    const spec = deepFreeze(this.openSpec(text));
    this.opened.set(id, { text, spec });
    return spec;
  }

  /** The stored spec with its secrets opened (rows from before sealing read as they are). */
  private openSpec(json: string): Omit<MonitorSpec, "channel_ids"> {
    const stored = JSON.parse(json) as StoredSpec;
    const open = (value: string) => this.secrets.open(value);
    return {
      ...stored,
      url: stored.url === null ? null : open(stored.url),
      headers:
        typeof stored.headers === "string"
          ? (JSON.parse(open(stored.headers)) as Record<string, string>)
          : stored.headers,
      body: stored.body === null ? null : open(stored.body),
      steps: stored.steps === undefined ? [] : (JSON.parse(open(stored.steps)) as MonitorSpec["steps"]),
      variables: stored.variables === undefined ? {} : (JSON.parse(open(stored.variables)) as Record<string, string>),
    };
  }
}

/** Freezes `value` and everything in it: a cached answer cannot be changed by whoever reads it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
