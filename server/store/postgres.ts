import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { POSTGRES_DIALECT } from "./dialect";
import type { Executor, RunResult, SqlValue, Statement } from "./executor";
import { MIGRATIONS } from "./migrations";
import { postgresDdl, postgresPlaceholders } from "./postgres-sql";

/** The channel each committed write is announced on: other replicas empty their caches. */
const COMMITS_CHANNEL = "uptime_commits";
/** Held while migrating: replicas that start together migrate once. */
const MIGRATION_LOCK = 7_261_001;

/** Counts and sums come back as JavaScript numbers, as SQLite gives them (ids and times fit). */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

interface Scope {
  client: pg.PoolClient;
  open: boolean;
  depth: number;
  wrote: boolean;
}

/**
 * PostgreSQL through a pool of `pg` connections. A transaction holds one connection until it
 * ends; statements outside one take any. Each commit that wrote is announced with NOTIFY, and
 * another replica's announcements change `externalVersion()` (its caches are emptied by it).
 */
export class PostgresExecutor implements Executor {
  readonly engine = "postgres" as const;
  readonly dialect = POSTGRES_DIALECT;
  private readonly scope = new AsyncLocalStorage<Scope>();
  /** Who this process is in the commit announcements (its own are not news to it). */
  private readonly origin = randomUUID();
  private commits = 0;
  private open = true;
  private listener: pg.Client | undefined;

  constructor(private readonly pool: pg.Pool) {}

  get isOpen(): boolean {
    return this.open;
  }

  get inTransaction(): boolean {
    return this.scope.getStore()?.open === true;
  }

  prepare(sql: string): Statement {
    const text = postgresPlaceholders(sql);
    const write = !/^\s*SELECT\b/i.test(sql);
    return {
      get: async (...params) => (await this.query(text, params, write)).rows[0],
      all: async (...params) => (await this.query(text, params, write)).rows,
      run: async (...params): Promise<RunResult> => ({ changes: (await this.query(text, params, write)).rowCount ?? 0 }),
    };
  }

  async exec(sql: string): Promise<void> {
    await this.query(sql, [], true);
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const outer = this.scope.getStore();
    if (outer?.open) return this.savepoint(outer, fn);
    const client = await this.pool.connect();
    const scope: Scope = { client, open: true, depth: 0, wrote: false };
    try {
      await client.query("BEGIN");
      const result = await this.scope.run(scope, fn);
      if (scope.wrote) await client.query("SELECT pg_notify($1, $2)", [COMMITS_CHANNEL, this.origin]);
      await client.query("COMMIT");
      return result;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      scope.open = false;
      client.release();
    }
  }

  private async savepoint<T>(outer: Scope, fn: () => Promise<T>): Promise<T> {
    const name = `nested_${outer.depth + 1}`;
    await outer.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await this.scope.run({ ...outer, depth: outer.depth + 1 }, fn);
      await outer.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await outer.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw err;
    } finally {
      outer.wrote = true;
    }
  }

  async probeWrite(): Promise<void> {
    const row = (await this.pool.query("SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS ro")).rows[0] as { standby: boolean; ro: string };
    if (row.standby || row.ro === "on") throw new Error("the PostgreSQL server is read-only (a standby, or default_transaction_read_only)");
  }

  async sizeBytes(): Promise<number> {
    return ((await this.pool.query("SELECT pg_database_size(current_database()) AS n")).rows[0] as { n: number }).n;
  }

  async externalVersion(): Promise<number> {
    return this.commits;
  }

  async compact(): Promise<void> {
    // PostgreSQL keeps old row versions until VACUUM; resealed secrets must not stay readable on disk.
    await this.pool.query("VACUUM");
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  /** Listens for other replicas' commits (a connection of its own, outside the pool). */
  async listen(connectionString: string): Promise<void> {
    const client = new pg.Client({ connectionString, types });
    client.on("notification", (message) => {
      if (message.payload !== this.origin) this.commits++;
    });
    // A lost listener cannot tell of commits: every look then counts as news (the caches stay empty).
    client.on("error", () => (this.listener = undefined));
    client.on("end", () => (this.commits = Number.NaN));
    await client.connect();
    await client.query(`LISTEN ${COMMITS_CHANNEL}`);
    this.listener = client;
  }

  private async query(text: string, params: SqlValue[], write: boolean): Promise<pg.QueryResult> {
    const scope = this.scope.getStore();
    if (scope?.open) {
      if (write) scope.wrote = true;
      return scope.client.query(text, params);
    }
    const result = await this.pool.query(text, params);
    if (write) await this.pool.query("SELECT pg_notify($1, $2)", [COMMITS_CHANNEL, this.origin]);
    return result;
  }
}

/** Connects to PostgreSQL at `url`, migrates its schema (once, whichever replica starts first) and listens for commits. */
export async function openPostgres(url: string): Promise<PostgresExecutor> {
  const pool = new pg.Pool({ connectionString: url, types, max: 10 });
  // An idle connection's error (the server restarted) must not end the process; the next query reconnects.
  pool.on("error", () => undefined);
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at TEXT NOT NULL)");
    const current = Number((await client.query("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")).rows[0].v);
    for (const [index, sql] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (version <= current) continue;
      await client.query("BEGIN");
      try {
        await client.query(postgresDdl(sql));
        await client.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [version, new Date().toISOString()]);
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
  const executor = new PostgresExecutor(pool);
  await executor.listen(url);
  return executor;
}
