import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
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
    return {
      monitors: count("monitors"),
      channels: count("channels"),
      statusPages: count("status_pages"),
      heartbeats: count("heartbeats"),
    };
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
  needFolder("--to", to);
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
    // The copy keeps the live database's WAL mode, and every open of it would leave -wal and -shm
    // files beside it: a backup is one self-contained file.
    const copy = new DatabaseSync(staging);
    try {
      copy.exec("PRAGMA journal_mode = DELETE");
    } finally {
      copy.close();
    }
    const summary = inspectDatabase(staging);
    renameSync(staging, to);
    return summary;
  } finally {
    removeDatabase(staging);
  }
}

/** Removes a database file and the -wal and -shm files SQLite may have left beside it. */
function removeDatabase(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true });
}

/** Refuses a file path whose folder is missing, with the option and the folder (SQLite says only "unable to open database file"). */
function needFolder(option: string, path: string): void {
  const folder = dirname(resolve(path));
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    // missing
  }
  if (!isFolder) throw new Error(`${option} ${path}: the folder ${folder} does not exist (create it first)`);
}

/**
 * Takes `dbPath` for this process alone, or refuses because another process has it open. Leaving
 * WAL mode needs every other connection gone, so it is SQLite's own answer to "is a server using
 * this file?", with no lock file of our own to go stale. The exclusive lock is then held until
 * the caller closes the connection, so no server can start writing to the file being replaced.
 * Returns undefined when there is no database yet.
 */
function holdAlone(dbPath: string): DatabaseSync | undefined {
  if (!existsSync(dbPath)) return undefined;
  const db = new DatabaseSync(dbPath);
  try {
    db.exec("PRAGMA busy_timeout = 0");
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    const { journal_mode: mode } = db.prepare("PRAGMA journal_mode = DELETE").get() as { journal_mode: string };
    if (mode !== "delete") throw new Error("database is locked");
    db.exec("BEGIN EXCLUSIVE");
    return db;
  } catch (err) {
    db.close();
    if (!/locked|busy/i.test((err as Error).message)) throw err;
    throw new Error(
      `${dbPath} is open in another process (a running uptime-server?). A restore replaces the file, and a server that holds it ` +
        "would go on writing to the replaced file: every write it answered from then on would be lost. Stop every server of this " +
        "database first (for example `systemctl stop uptime-server`), then run restore again. To copy a database that servers are " +
        "using, use `uptime-server backup`, which is safe online.",
    );
  }
}

/**
 * Replaces the database at `dbPath` with the backup `from`. It refuses while any process has
 * `dbPath` open (see holdAlone), and holds it alone until the new file is in place. The backup is
 * checked, migrated and opened with the key file before anything is replaced: a backup whose
 * secrets the key file cannot open is refused and `dbPath` stays as it was.
 */
export async function restoreDatabase(
  from: string,
  dbPath: string,
  secretKeyFile = `${dbPath}.key`,
): Promise<BackupSummary> {
  if (!existsSync(from)) throw new Error(`--from ${from} does not exist`);
  needFolder("--db", dbPath);
  if (!existsSync(secretKeyFile)) {
    throw new Error(
      `no key file at ${secretKeyFile}: a backup's secrets are sealed by the key file of the server that wrote it. ` +
        "Put that file there (or pass --secret-key-file); without it the backup cannot be read, by design.",
    );
  }
  inspectDatabase(from);
  const held = holdAlone(dbPath);
  const staging = `${dbPath}.restore-${process.pid}`;
  try {
    copyFileSync(from, staging);
    chmodSync(staging, 0o600);
    try {
      // Migrates it and opens every sealed secret: a wrong key file fails here.
      await (await Store.open(staging, { secretKeyFile })).close();
    } catch (err) {
      throw new Error(`${from} cannot be restored with the key file ${secretKeyFile}: ${(err as Error).message}`);
    }
    for (const file of [`${dbPath}-wal`, `${dbPath}-shm`]) rmSync(file, { force: true });
    renameSync(staging, dbPath);
  } finally {
    held?.close();
    removeDatabase(staging);
  }
  return inspectDatabase(dbPath);
}
