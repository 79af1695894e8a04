import { chmodSync, closeSync, existsSync, openSync, readSync, realpathSync } from "node:fs";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { SQLITE_DIALECT } from "./dialect";
import {
  type Executor,
  newProcessToken,
  type RunResult,
  type SqlValue,
  type Statement,
  type TransactionOptions,
} from "./executor";
import { MIGRATIONS } from "./migrations";
import { type TransactionScope, Transactions } from "./transactions";

/** Distinct SQL texts kept; lists with `IN (?, …)` of many lengths cannot grow it past this. */
const MAX_STATEMENTS = 1000;

/**
 * The WAL-index header at the start of the `-shm` file: two copies of 48 bytes that every commit
 * rewrites (its change counter, last frame and checksums; https://sqlite.org/walformat.html).
 */
const WAL_INDEX_HEADER = 96;

/**
 * The embedded engine: one `node:sqlite` connection. Its calls are synchronous; a transaction
 * holds the connection until it ends, and statements of other callers wait for it (a SQLite
 * connection has one transaction, so theirs would otherwise join it).
 */
export class SqliteExecutor implements Executor {
  readonly engine = "sqlite" as const;
  readonly dialect = SQLITE_DIALECT;
  readonly processToken = newProcessToken();
  private readonly statements = new Map<string, StatementSync>();
  private readonly transactions = new Transactions<TransactionScope>();
  /** Settles when the transaction holding the connection ends. */
  private held: Promise<void> | undefined;

  /** The `-shm` file (its descriptor once opened) and its header as of the last look. */
  private walIndex: { path: string; fd?: number; seen: Buffer; read: Buffer } | undefined;
  private dataVersion: number | undefined;
  private readonly memory: boolean;

  /** `shm`: the database's `-shm` file (none for `:memory:`, which no other connection can open). */
  constructor(
    readonly db: DatabaseSync,
    shm?: string,
  ) {
    if (shm) this.walIndex = { path: shm, seen: Buffer.alloc(WAL_INDEX_HEADER), read: Buffer.alloc(WAL_INDEX_HEADER) };
    this.memory = shm === undefined;
  }

  get isOpen(): boolean {
    return this.db.isOpen;
  }

  get inTransaction(): boolean {
    return this.transactions.current !== undefined;
  }

  prepare(sql: string): Statement {
    return {
      get: (...params) => this.when(() => this.compiled(sql).get(...params)),
      all: (...params) => this.when(() => this.compiled(sql).all(...params)),
      run: (...params) =>
        this.when(() => ({ changes: Number(this.compiled(sql).run(...(params as SqlValue[])).changes) }) as RunResult),
    };
  }

  exec(sql: string): Promise<void> {
    return this.when(() => this.db.exec(sql));
  }

  async transaction<T>(fn: () => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const outer = this.transactions.current;
    if (outer) {
      if (outer.flat) return fn();
      const inner = { open: true, depth: outer.depth + 1, flat: false, committed: [] };
      return this.transactions.savepoint(outer, inner, fn, {
        exec: (sql) => this.db.exec(sql),
        rollback: (name) => `ROLLBACK TO ${name}; RELEASE ${name}`,
      });
    }
    while (this.held) await this.held;
    let release = () => undefined as void;
    this.held = new Promise((resolve) => (release = resolve));
    return this.transactions.outermost({ open: true, depth: 0, flat: options.flat === true, committed: [] }, fn, {
      begin: () => this.db.exec("BEGIN IMMEDIATE"),
      commit: () => this.db.exec("COMMIT"),
      rollback: () => {
        if (this.db.isOpen && this.db.isTransaction) this.db.exec("ROLLBACK");
      },
      end: () => {
        this.held = undefined;
        release();
      },
    });
  }

  afterCommit(fn: () => void): void {
    this.transactions.afterCommit(fn);
  }

  async probeWrite(): Promise<void> {
    await this.when(() => {
      this.db.exec("BEGIN IMMEDIATE");
      this.db.exec("ROLLBACK");
    });
  }

  async sizeBytes(): Promise<number> {
    const count = (await this.prepare("PRAGMA page_count").get()) as { page_count: number };
    const size = (await this.prepare("PRAGMA page_size").get()) as { page_size: number };
    return count.page_count * size.page_size;
  }

  /** An in-memory database only: a file's look reads its `-shm` file (see `externalVersion`). */
  get externalVersionInMemory(): boolean {
    return this.memory;
  }

  /**
   * SQLite's `data_version`, which changes with each commit of another connection. Every request
   * looks, so the look is cheap: a commit by any connection rewrites the WAL-index header in the
   * `-shm` file, and while those bytes are as they were at the last look, nobody committed and
   * the version is the same. When they changed (this connection's commits change them too), the
   * PRAGMA answers. The header is read before the PRAGMA runs, so a commit between the two is
   * seen by the next look.
   */
  async externalVersion(): Promise<number> {
    // No other connection can open an in-memory database.
    if (this.memory) return 0;
    if (this.dataVersion !== undefined && this.walIndexUnchanged()) return this.dataVersion;
    this.dataVersion = ((await this.prepare("PRAGMA data_version").get()) as { data_version: number }).data_version;
    return this.dataVersion;
  }

  /**
   * Proves at open that the `-shm` file read is the one SQLite writes: one commit of this
   * connection must change its header. If it does not (a file elsewhere, a build of SQLite that
   * keeps the index in memory), every look runs the PRAGMA.
   */
  proveWalIndex(): void {
    if (!this.walIndex) return;
    this.walIndexUnchanged();
    let proven = false;
    try {
      const version = (this.db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
      this.db.exec(`PRAGMA user_version = ${version}`);
      proven = !this.walIndexUnchanged();
    } catch {
      // Not writable now (another process holds the write lock past the busy timeout): no shortcut.
    }
    if (!proven) {
      if (this.walIndex.fd !== undefined) closeSync(this.walIndex.fd);
      this.walIndex = undefined;
    }
  }

  /** Whether the WAL-index header is as at the last look (false, and remembered, when it changed or cannot be read). */
  private walIndexUnchanged(): boolean {
    const index = this.walIndex;
    if (!index) return false;
    try {
      index.fd ??= openSync(index.path, "r");
      if (readSync(index.fd, index.read, 0, WAL_INDEX_HEADER, 0) !== WAL_INDEX_HEADER) return false;
    } catch {
      return false;
    }
    if (index.read.equals(index.seen)) return true;
    index.read.copy(index.seen);
    return false;
  }

  /** SQLite cannot tell which rows another connection wrote: its commits change `externalVersion`. */
  onExternalRows(): void {}

  /** One process uses a SQLite file: it checks every monitor, and there is no one to tell. */
  async joinCheckers(): Promise<void> {}

  async checkers(): Promise<undefined> {
    return undefined;
  }

  /** One connection: background work runs on it like any other. */
  background<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  async compact(): Promise<void> {
    // Older copies of the rows must not linger in the write-ahead log.
    await this.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  async close(): Promise<void> {
    while (this.held) await this.held;
    if (this.walIndex?.fd !== undefined) closeSync(this.walIndex.fd);
    this.walIndex = undefined;
    if (this.db.isOpen) this.db.close();
  }

  /** Runs `fn` now when the connection is free or the caller's transaction holds it; else after. */
  private when<T>(fn: () => T): Promise<T> {
    if (!this.held || this.inTransaction) {
      try {
        return Promise.resolve(fn());
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    return this.held.then(() => this.when(fn));
  }

  private compiled(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * Opens the embedded store (a file path or `:memory:`) and brings its schema up to date. WAL mode
 * keeps readers off the writer's back; `synchronous=NORMAL` in WAL mode keeps every committed
 * write across a crash of the process (only a power loss may drop the last commits).
 */
export function openSqlite(path: string): SqliteExecutor {
  // Created owner-only; SQLite gives the -wal and -shm files the database file's mode.
  if (path !== ":memory:" && !existsSync(path)) closeSync(openSync(path, "a", 0o600));
  const db = new DatabaseSync(path);
  // Deleted and overwritten content is zeroed, not left in free pages.
  db.exec("PRAGMA secure_delete = ON");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  migrate(db);
  if (path !== ":memory:") ownerOnly(path);
  // Beside the file SQLite opened: a database reached through a symlink has its -shm by the target.
  const executor = new SqliteExecutor(db, path === ":memory:" ? undefined : `${realpathSync(path)}-shm`);
  executor.proveWalIndex();
  return executor;
}

/** Database files readable by their owner only (older installations made them 0644). */
function ownerOnly(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

function migrate(db: DatabaseSync): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
  const current = sqliteSchemaVersion(db);
  for (const [index, sql] of MIGRATIONS.entries()) {
    const version = index + 1;
    if (version <= current) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(sql);
      db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(
        version,
        new Date().toISOString(),
      );
      db.exec("COMMIT");
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
  }
}

/** The last migration applied to the database (0 for none). */
export function sqliteSchemaVersion(db: DatabaseSync): number {
  const row = db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number | null };
  return row.v ?? 0;
}
