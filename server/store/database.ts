import { chmodSync, closeSync, existsSync, openSync } from "node:fs";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { MIGRATIONS } from "./migrations";

/**
 * Opens the embedded store (a file path or `:memory:`) and brings its schema up to date. WAL mode
 * keeps readers off the writer's back; `synchronous=NORMAL` in WAL mode keeps every committed
 * write across a crash of the process (only a power loss may drop the last commits).
 */
export function openDatabase(path: string): DatabaseSync {
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
  return db;
}

/** Database files readable by their owner only (older installations made them 0644). */
function ownerOnly(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

function migrate(db: DatabaseSync): void {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
  );
  const current = schemaVersion(db);
  for (const [index, sql] of MIGRATIONS.entries()) {
    const version = index + 1;
    if (version <= current) continue;
    transaction(db, () => {
      db.exec(sql);
      db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(
        version,
        new Date().toISOString(),
      );
    });
  }
}

/** The last migration applied to the database (0 for none). */
export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number | null };
  return row.v ?? 0;
}

/**
 * Runs `fn` in one write transaction: all of it is stored, or none. Inside another transaction it
 * is a savepoint: its failure undoes only its own writes (a batch of results, each its own).
 */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  const [begin, commit, rollback] = db.isTransaction
    ? ["SAVEPOINT nested", "RELEASE nested", "ROLLBACK TO nested; RELEASE nested"]
    : ["BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"];
  db.exec(begin);
  try {
    const result = fn();
    db.exec(commit);
    return result;
  } catch (err) {
    db.exec(rollback);
    throw err;
  }
}

/** The ids among `ids` that are rows of `table` owned by the account (reference checks). */
export function ownedIds(
  db: DatabaseSync,
  table: "channels" | "monitors",
  accountId: string,
  ids: readonly string[],
): Set<string> {
  if (ids.length === 0) return new Set();
  const rows = db
    .prepare(`SELECT id FROM ${table} WHERE account_id = ? AND id IN (${ids.map(() => "?").join(",")})`)
    .all(accountId, ...ids) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/**
 * Commits by other connections to the same file (another server process, a `keys revoke`
 * command): SQLite's `data_version` changes with each of them, never with this connection's own.
 * The in-memory caches of the store subscribe and are emptied when it changes; every
 * authenticated request looks, so no request is answered from what another process replaced.
 */
export class ExternalCommits {
  private version = -1;
  private query: StatementSync | undefined;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly db: DatabaseSync) {}

  /** `listener` runs whenever another connection has committed since the last look. */
  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Looks (one pragma), and empties the subscribers' caches if another connection committed. */
  check(): void {
    this.query ??= this.db.prepare("PRAGMA data_version");
    const { data_version: version } = this.query.get() as { data_version: number };
    if (version === this.version) return;
    this.version = version;
    for (const listener of this.listeners) listener();
  }
}
