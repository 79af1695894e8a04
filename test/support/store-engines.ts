import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "../../server/index";
import { type PrivatePostgres, startPostgres } from "../../scripts/private-postgres";

/** The store's engines. */
const ALL_ENGINES = ["sqlite", "postgres"] as const;
export type EngineName = (typeof ALL_ENGINES)[number];

/** The engines every store suite runs against: both, but SQLite alone under `npm run test:fast`. */
export const ENGINES: readonly EngineName[] = process.env.UPTIME_TESTS === "fast" ? ["sqlite"] : ALL_ENGINES;

let server: Promise<PrivatePostgres> | undefined;

/** This test file's own PostgreSQL, started on first use and stopped when the file's process exits. */
export function filePostgres(): Promise<PrivatePostgres> {
  server ??= startPostgres();
  return server;
}

/** A new, empty database on `engine` and the options that open it (a key file of its own). */
export async function freshDatabase(engine: EngineName): Promise<{ db: string; secretKeyFile?: string }> {
  if (engine === "sqlite") return { db: ":memory:" };
  const db = await (await filePostgres()).createDatabase();
  return { db, secretKeyFile: join(mkdtempSync(join(tmpdir(), "uptime-key-")), "secret.key") };
}

/** A store over a new, empty database on `engine`. */
export async function openTestStore(engine: EngineName): Promise<Store> {
  const { db, secretKeyFile } = await freshDatabase(engine);
  return Store.open(db, { secretKeyFile });
}

/** The engine the server suites run against: `UPTIME_TEST_DB=postgres` (the postgres project), else SQLite. */
export function serverEngine(): EngineName {
  return process.env.UPTIME_TEST_DB === "postgres" ? "postgres" : "sqlite";
}
