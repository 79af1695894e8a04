import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { freeFixedPort } from "./free-port";
import { REPO_ROOT } from "./pulumi-engine";

/** A PostgreSQL server of a test's (or a benchmark's) own: its folder, its port, stopped by `stop()`. */
export interface PrivatePostgres {
  /** The URL of database `name` (default: the server's `postgres` database). */
  url(name?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server at once (as a crash would) and deletes its folder. */
  stop(): void;
  /** The process id of the server's postmaster (its connections' processes are its children). */
  pid(): number;
}

/** How to start the server. */
export interface PostgresOptions {
  /** More server settings, `name=value` each (for example `shared_preload_libraries=pg_stat_statements`). */
  settings?: readonly string[];
}

/**
 * Starts PostgreSQL (Debian's, or what ensure-postgres finds) in a new folder on a free loopback
 * port. PostgreSQL refuses to run as root: as root, the folder is given to the `postgres` user
 * and the server runs as it (`runuser`). Trust authentication on loopback only, C collation (the
 * order SQLite sorts text in).
 */
export async function startPostgres(options: PostgresOptions = {}): Promise<PrivatePostgres> {
  const { ensurePostgres } = (await import(pathToFileURL(join(REPO_ROOT, "scripts/ensure-postgres.mjs")).href)) as {
    ensurePostgres: () => { bin: string };
  };
  const { bin } = ensurePostgres();
  const dir = mkdtempSync(join(tmpdir(), "uptime-pg-"));
  const data = join(dir, "data");
  const root = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const command = root
      ? (["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]] as const)
      : ([join(bin, tool), args] as const);
    execFileSync(command[0], [...command[1]], { stdio: ["ignore", "pipe", "pipe"], cwd: dir });
  };
  if (root) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  run("initdb", ["-D", data, "-U", "uptime", "--auth=trust", "--locale=C", "--encoding=UTF8", "--no-sync"]);
  const port = await freeFixedPort();
  writeFileSync(join(dir, "started"), "");
  run("pg_ctl", [
    "-D",
    data,
    "-l",
    join(dir, "log"),
    "-w",
    "-t",
    "60",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200${(options.settings ?? []).map((s) => ` -c ${s}`).join("")}`,
    "start",
  ]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once("exit", stop);
  // A test runner may end its worker without an exit event: a watcher stops the server once this process is gone.
  const pgCtl = root ? `runuser -u postgres -- ${join(bin, "pg_ctl")}` : join(bin, "pg_ctl");
  spawn(
    "sh",
    [
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${pgCtl} -D '${data}' -m immediate stop >/dev/null 2>&1; rm -rf '${dir}'`,
    ],
    { detached: true, stdio: "ignore" },
  ).unref();
  const url = (name = "postgres") => `postgres://uptime@127.0.0.1:${port}/${name}`;
  return {
    url,
    stop,
    pid: () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]),
    createDatabase: () => createDatabase(url()),
  };
}

/** Databases this process created (a part of each one's name). */
let created = 0;

/**
 * Creates an empty database on the server of `serverUrl` (a URL of one of its databases) and returns
 * its URL. Its name is this process's and new (several processes create databases on one server).
 */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `uptime_${process.pid}_${++created}_${randomBytes(3).toString("hex")}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}
