import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { POSTGRES_DIALECT } from "./dialect";
import {
  type Executor,
  newProcessToken,
  type PrepareOptions,
  type RunResult,
  type SqlValue,
  type Statement,
  type TransactionOptions,
} from "./executor";
import { MIGRATIONS } from "./migrations";
import { MONITOR_ROWS, monitorParam } from "../monitor-rows";
import { postgresDdl, postgresPlaceholders } from "./postgres-sql";
import { type TransactionScope, Transactions } from "./transactions";

/** The channel each committed write is announced on: other replicas empty their caches. */
const COMMITS_CHANNEL = "uptime_commits";
/**
 * Writes no replica's cache depends on (the caches hold keys and monitors): counts of the rate
 * limits, leases of checks, reservations of idempotency keys. They are the writes of every
 * request and every check, so announcing them would empty every other replica's caches all the
 * time, and cost each of them a second round trip.
 */
const UNCACHED_WRITE =
  /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:rate_counters|check_leases|idempotency_keys)\b/i;
/** The table a plain write statement changes; any other statement (DDL, a CTE) is announced as `*`. */
const WRITTEN_TABLE = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b/i;
/** The tables a write changes, as announced: `*` for every table. */
function writtenTables(sql: string): string | undefined {
  if (/^\s*SELECT\b/i.test(sql) || UNCACHED_WRITE.test(sql)) return undefined;
  return WRITTEN_TABLE.exec(sql)?.[1]?.toLowerCase() ?? "*";
}
/**
 * Distinct statement texts run as named prepared statements: each connection parses and plans
 * such a text once, not at every run (most of PostgreSQL's own work for the small statements of a
 * check or a request). Texts past this many (lists with `IN (?, …)` of many lengths) run unnamed.
 */
const MAX_NAMED = 500;
/**
 * The longest payload of one announcement: PostgreSQL's limit is 8,000 bytes. A commit that
 * wrote more rows than fit is announced in several.
 */
const MAX_PAYLOAD = 7_500;
/**
 * A checker's advisory lock is its process token moved past every process token (those are below
 * 2^49, see `newProcessToken`): live checkers are the holders of such locks.
 */
const CHECKER_LOCK_OFFSET = 2 ** 49;
/** The live checkers' tokens: the advisory locks past `CHECKER_LOCK_OFFSET` held in this database. */
const CHECKERS = `SELECT key - $1 AS token FROM (SELECT (classid::bigint << 32) | objid::bigint AS key FROM pg_locks
  WHERE locktype = 'advisory' AND objsubid = 1 AND granted
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS locks WHERE key >= $1`;
/** Held while migrating: replicas that start together migrate once. */
const MIGRATION_LOCK = 7_261_001;

/** Counts and sums come back as JavaScript numbers, as SQLite gives them (ids and times fit). */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/** What a write statement changed, to be announced: a table, or one row of it. */
interface Written {
  table: string;
  ids?: readonly string[];
}

/** A transaction in progress on one connection of the pool. */
interface Scope extends TransactionScope {
  client: pg.PoolClient;
  /** The tables the transaction wrote, announced when it commits. */
  wrote: Set<string>;
  /** The rows it wrote of tables it wrote no other way (statements prepared with `row`), by table. */
  rows: Map<string, Set<string>>;
}

/**
 * PostgreSQL through a pool of `pg` connections. A transaction holds one connection until it
 * ends; statements outside one take any. Each commit that wrote is announced with NOTIFY, and
 * another replica's announcements change `externalVersion()` (its caches are emptied by it).
 * An announcement names the tables written, so that a cache is emptied only by writes to the
 * tables it holds; writes to tables no cache holds (`UNCACHED_WRITE`) are not announced.
 */
export class PostgresExecutor implements Executor {
  readonly engine = "postgres" as const;
  readonly dialect = POSTGRES_DIALECT;
  /** Held as an advisory lock by the listening session (see `listen`) while this process lives. */
  processToken = newProcessToken();
  private readonly transactions = new Transactions<Scope>();
  /** Who this process is in the commit announcements (its own are not news to it). */
  private readonly origin = randomUUID();
  /** Announced commits of other replicas: in all, and by table (`*`: any table). */
  private commits = 0;
  private readonly commitsTo = new Map<string, number>();
  private open = true;
  private listener: pg.Client | undefined;

  /** The pool of the work under way: `background` work has its own. */
  private readonly lane = new AsyncLocalStorage<pg.Pool>();

  /** `pool` serves requests; `backgroundPool` the checker and deliveries (see `background`). */
  constructor(
    private readonly pool: pg.Pool,
    private readonly backgroundPool: pg.Pool,
  ) {}

  /**
   * Runs `fn` with its statements on connections of their own. The checker runs every check in
   * it: with thousands of checks due, their statements would otherwise fill the pool, and each
   * request (its rate count, a read) would wait behind them.
   */
  background<T>(fn: () => Promise<T>): Promise<T> {
    return this.lane.run(this.backgroundPool, fn);
  }

  /** The pool of the work under way. */
  private get current(): pg.Pool {
    return this.lane.getStore() ?? this.pool;
  }

  get isOpen(): boolean {
    return this.open;
  }

  get inTransaction(): boolean {
    return this.transactions.current !== undefined;
  }

  /** The names of the statements prepared by name (see `MAX_NAMED`), by text. */
  private readonly names = new Map<string, string>();

  prepare(sql: string, options: PrepareOptions = {}): Statement {
    const text = postgresPlaceholders(sql);
    // Announced when committed: a write that a replica's cache may hold.
    const table = writtenTables(sql);
    // Rows of one monitor are announced as that monitor's (other replicas' status pages follow it).
    const row = table !== undefined && table !== "*" ? (options.row ?? monitorParam(sql)) : undefined;
    const rows = table !== undefined && table !== "*" ? options.rows : undefined;
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_NAMED) this.names.set(text, (name = `s${this.names.size + 1}`));
    const query: pg.QueryConfig = { text, name };
    const write = (params: SqlValue[]): Written | undefined =>
      table === undefined
        ? undefined
        : row !== undefined
          ? { table, ids: [String(params[row])] }
          : rows !== undefined
            ? {
                table,
                ids: (JSON.parse(String(params[rows.param])) as Record<string, unknown>[]).map((r) =>
                  String(r[rows.key]),
                ),
              }
            : { table };
    return {
      get: async (...params) => (await this.query(query, params, write(params))).rows[0],
      all: async (...params) => (await this.query(query, params, write(params))).rows,
      run: async (...params): Promise<RunResult> => ({
        changes: (await this.query(query, params, write(params))).rowCount ?? 0,
      }),
    };
  }

  async exec(sql: string): Promise<void> {
    await this.query({ text: sql }, [], { table: "*" });
  }

  async transaction<T>(fn: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const outer = this.transactions.current;
    if (outer) {
      if (outer.flat) return fn();
      // The same set of written tables: what the savepoint wrote is announced with the transaction.
      const inner: Scope = { ...outer, depth: outer.depth + 1, flat: false, committed: [] };
      return this.transactions.savepoint(outer, inner, fn, {
        exec: (sql) => outer.client.query(sql),
        rollback: (name) => `ROLLBACK TO SAVEPOINT ${name}`,
      });
    }
    const client = await this.current.connect();
    const scope: Scope = {
      client,
      open: true,
      depth: 0,
      flat: options.flat === true,
      wrote: new Set(),
      rows: new Map(),
      committed: [],
    };
    return this.transactions.outermost(scope, fn, {
      begin: () => client.query("BEGIN"),
      commit: async () => {
        await this.announce(client, scope.wrote, scope.rows);
        await client.query("COMMIT");
      },
      rollback: () => client.query("ROLLBACK").catch(() => undefined),
      end: () => client.release(),
    });
  }

  afterCommit(fn: () => void): void {
    this.transactions.afterCommit(fn);
  }

  async probeWrite(): Promise<void> {
    const row = (
      await this.pool.query("SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS ro")
    ).rows[0] as { standby: boolean; ro: string };
    if (row.standby || row.ro === "on")
      throw new Error("the PostgreSQL server is read-only (a standby, or default_transaction_read_only)");
  }

  async sizeBytes(): Promise<number> {
    return ((await this.pool.query("SELECT pg_database_size(current_database()) AS n")).rows[0] as { n: number }).n;
  }

  /** Other replicas' announcements arrive on the listening connection and are counted here. */
  readonly externalVersionInMemory = true;

  async externalVersion(tables?: readonly string[]): Promise<number> {
    if (!tables || Number.isNaN(this.commits)) return this.commits;
    let version = this.commitsTo.get("*") ?? 0;
    for (const table of tables) version += this.commitsTo.get(table) ?? 0;
    return version;
  }

  private readonly rowListeners: ((table: string, ids: readonly string[]) => void)[] = [];

  onExternalRows(listener: (table: string, ids: readonly string[]) => void): void {
    this.rowListeners.push(listener);
  }

  /**
   * Announces a commit of `tables`, and of `rows` of other tables, on `client` (in the
   * transaction, so that it is sent when it commits). A payload is who committed, then its
   * entries: `table`, or `table=id;id;…` for rows; a commit with more rows than one payload holds
   * sends several, in one statement.
   */
  private async announce(
    client: pg.ClientBase | pg.Pool,
    tables: ReadonlySet<string>,
    rows: ReadonlyMap<string, ReadonlySet<string>>,
  ): Promise<void> {
    const room = MAX_PAYLOAD - this.origin.length - 1;
    const entries = [...tables];
    const monitors = tables.has("monitors") || tables.has("*") ? undefined : rows.get("monitors");
    for (const [table, ids] of rows) {
      // A write to the whole table says it all.
      if (tables.has(table) || tables.has("*")) continue;
      // Rows of a monitor's other tables (its checks, roll-ups, streaks) tell no more than its own
      // row does, written in the same commit: every reader takes a write to any of them as a
      // change of that monitor (see `MONITOR_ROWS`). A batch of checks is then announced once, not
      // once per table it wrote.
      if (table !== "monitors" && monitors && MONITOR_ROWS.has(table) && [...ids].every((id) => monitors.has(id)))
        continue;
      const chunk: string[] = [];
      for (const id of ids) {
        if (chunk.length > 0 && table.length + (chunk.length + 1) * (id.length + 1) > room)
          entries.push(`${table}=${chunk.splice(0).join(";")}`);
        chunk.push(id);
      }
      if (chunk.length > 0) entries.push(`${table}=${chunk.join(";")}`);
    }
    const payloads: string[] = [];
    let payload: string[] = [];
    let length = 0;
    for (const entry of entries) {
      if (payload.length > 0 && length + entry.length + 1 > room) {
        payloads.push(`${this.origin} ${payload.join(",")}`);
        payload = [];
        length = 0;
      }
      payload.push(entry);
      length += entry.length + 1;
    }
    if (payload.length > 0) payloads.push(`${this.origin} ${payload.join(",")}`);
    if (payloads.length === 1) await client.query("SELECT pg_notify($1, $2)", [COMMITS_CHANNEL, payloads[0]]);
    else if (payloads.length > 1)
      await client.query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", [COMMITS_CHANNEL, payloads]);
  }

  /** Whether this process holds its checker's lock (see `joinCheckers`). */
  private checker = false;

  /**
   * Takes (or releases) this process's checker lock on the listening session, the one that holds
   * `processToken`: PostgreSQL releases both when the process dies.
   */
  async joinCheckers(joined: boolean): Promise<void> {
    const client = this.listener;
    if (!client || joined === this.checker) return;
    await client.query(joined ? "SELECT pg_try_advisory_lock($1)" : "SELECT pg_advisory_unlock($1)", [
      this.processToken + CHECKER_LOCK_OFFSET,
    ]);
    this.checker = joined;
  }

  async checkers(): Promise<number[]> {
    return ((await this.pool.query(CHECKERS, [CHECKER_LOCK_OFFSET])).rows as { token: number }[]).map((r) => r.token);
  }

  async compact(): Promise<void> {
    // PostgreSQL keeps old row versions until VACUUM; resealed secrets must not stay readable on disk.
    await this.pool.query("VACUUM");
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.listener?.end().catch(() => undefined);
    await Promise.all([this.pool.end(), this.backgroundPool.end()]);
  }

  /** Listens for other replicas' commits (a connection of its own, outside the pool). */
  async listen(connectionString: string): Promise<void> {
    const client = new pg.Client({ connectionString, types, keepAlive: true });
    client.on("notification", (message) => {
      const [from, entries = "*"] = (message.payload ?? "").split(" ");
      if (from === this.origin) return;
      let tables = 0;
      for (const entry of entries.split(",")) {
        const [table = "*", ids] = entry.split("=");
        if (ids !== undefined) {
          for (const listener of this.rowListeners) listener(table, ids.split(";"));
          continue;
        }
        tables++;
        this.commitsTo.set(table, (this.commitsTo.get(table) ?? 0) + 1);
      }
      if (tables > 0) this.commits++;
    });
    // A lost listener cannot tell of commits: every look then counts as news (the caches stay empty).
    client.on("error", () => (this.listener = undefined));
    client.on("end", () => (this.commits = Number.NaN));
    await client.connect();
    await client.query(`LISTEN ${COMMITS_CHANNEL}`);
    await this.holdProcessToken(client);
    this.listener = client;
  }

  /**
   * Takes `processToken` as a lock of the listening session: PostgreSQL releases it when that
   * session ends, the moment this process dies (its socket closes). A machine that vanishes
   * closes no socket: the session's keepalives end it within about 10 s (5 s idle, then 3
   * unanswered probes 1 s apart; not used over a Unix socket, which only a local process holds).
   */
  private async holdProcessToken(client: pg.Client): Promise<void> {
    await client.query("SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3");
    // Another live process holding the same random token is all but impossible; draw again if so.
    for (let attempt = 0; attempt < 5; attempt++) {
      const taken = (await client.query("SELECT pg_try_advisory_lock($1) AS taken", [this.processToken])).rows[0] as {
        taken: boolean;
      };
      if (taken.taken) return;
      this.processToken = newProcessToken();
    }
    throw new Error("could not take a process token (an advisory lock) on PostgreSQL");
  }

  private async query(
    query: pg.QueryConfig,
    params: SqlValue[],
    written: Written | undefined,
  ): Promise<pg.QueryResult> {
    const scope = this.transactions.current;
    if (scope) {
      if (written?.ids !== undefined) {
        let ids = scope.rows.get(written.table);
        if (!ids) scope.rows.set(written.table, (ids = new Set()));
        for (const id of written.ids) ids.add(id);
      } else if (written) scope.wrote.add(written.table);
      return scope.client.query({ ...query, values: params });
    }
    const pool = this.current;
    const result = await pool.query({ ...query, values: params });
    if (written) {
      await this.announce(
        pool,
        written.ids === undefined ? new Set([written.table]) : new Set(),
        written.ids === undefined ? new Map() : new Map([[written.table, new Set(written.ids)]]),
      );
    }
    return result;
  }
}

/** Connects to PostgreSQL at `url`, migrates its schema (once, whichever replica starts first) and listens for commits. */
export async function openPostgres(url: string): Promise<PostgresExecutor> {
  const pool = new pg.Pool({ connectionString: url, types, max: 10 });
  const backgroundPool = new pg.Pool({ connectionString: url, types, max: 10 });
  // An idle connection's error (the server restarted) must not end the process; the next query reconnects.
  pool.on("error", () => undefined);
  backgroundPool.on("error", () => undefined);
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at TEXT NOT NULL)",
    );
    const current = Number(
      (await client.query("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")).rows[0].v,
    );
    for (const [index, sql] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (version <= current) continue;
      await client.query("BEGIN");
      try {
        await client.query(postgresDdl(sql));
        await client.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [
          version,
          new Date().toISOString(),
        ]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw err;
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  const executor = new PostgresExecutor(pool, backgroundPool);
  await executor.listen(url);
  return executor;
}
