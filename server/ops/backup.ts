import { chmodSync, copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { backup, DatabaseSync } from "node:sqlite";
import { Store } from "../store";

/** Pages per backup step: all of them, so the copy is one read transaction (see below). */
const ALL_PAGES = 0x7fffffff;

/** What a backup or restore holds: object counts, for the operator and the tests. */
export interface BackupSummary {
  monitors: number;
  channels: number;
  statusPages: number;
  heartbeats: number;
}

/** Counts the objects of a database and runs SQLite's integrity check on it (throws unless "ok"). */
export function inspectDatabase(path: string): BackupSummary {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const check = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
    if (check.length !== 1 || check[0]?.integrity_check !== "ok") {
      throw new Error(`${path} fails SQLite's integrity check: ${check.map((r) => r.integrity_check).join("; ")}`);
    }
    const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { monitors: count("monitors"), channels: count("channels"), statusPages: count("status_pages"), heartbeats: count("heartbeats") };
  } finally {
    db.close();
  }
}

/**
 * Copies the database at `dbPath` into `to` while servers keep writing to it. SQLite's online
 * backup copies every page in one step, inside one read transaction: in WAL mode writers go on,
 * and the copy is the database as of one commit (a copy made in several steps would restart
 * whenever another process commits, and might never finish under load). The copy is checked and
 * made owner-only before it is moved to `to`. Secrets in it stay sealed by the key file, which
 * is not copied: a backup without its key file cannot be read, by design.
 */
export async function backupDatabase(dbPath: string, to: string): Promise<BackupSummary> {
  if (!existsSync(dbPath)) throw new Error(`--db ${dbPath} does not exist`);
  if (existsSync(to)) throw new Error(`--to ${to} exists: choose a new file (a backup never overwrites one)`);
  const staging = `${to}.tmp-${process.pid}`;
  const db = new DatabaseSync(dbPath);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    await backup(db, staging, { rate: ALL_PAGES });
  } finally {
    db.close();
  }
  try {
    chmodSync(staging, 0o600);
    const summary = inspectDatabase(staging);
    renameSync(staging, to);
    return summary;
  } catch (err) {
    rmSync(staging, { force: true });
    throw err;
  }
}

/**
 * Replaces the database at `dbPath` with the backup `from` (stop the server first). The backup is
 * checked, migrated and opened with the key file before anything is replaced: a backup whose
 * secrets the key file cannot open is refused and `dbPath` stays as it was.
 */
export function restoreDatabase(from: string, dbPath: string, secretKeyFile = `${dbPath}.key`): BackupSummary {
  if (!existsSync(from)) throw new Error(`--from ${from} does not exist`);
  if (!existsSync(secretKeyFile)) {
    throw new Error(
      `no key file at ${secretKeyFile}: a backup's secrets are sealed by the key file of the server that wrote it. ` +
        "Put that file there (or pass --secret-key-file); without it the backup cannot be read, by design.",
    );
  }
  inspectDatabase(from);
  const staging = `${dbPath}.restore-${process.pid}`;
  copyFileSync(from, staging);
  chmodSync(staging, 0o600);
  try {
    // Migrates it and opens every sealed secret: a wrong key file fails here.
    Store.open(staging, { secretKeyFile }).close();
  } catch (err) {
    for (const file of [staging, `${staging}-wal`, `${staging}-shm`]) rmSync(file, { force: true });
    throw new Error(`${from} cannot be restored with the key file ${secretKeyFile}: ${(err as Error).message}`);
  }
  for (const file of [`${dbPath}-wal`, `${dbPath}-shm`]) rmSync(file, { force: true });
  renameSync(staging, dbPath);
  return inspectDatabase(dbPath);
}
