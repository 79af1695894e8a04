import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, inject } from "vitest";
import { toMonitorSpec } from "../../api";
import { Store } from "../../server/index";
import { createDatabase, type PrivatePostgres, startPostgres } from "../../scripts/private-postgres";

/** The store's engines. */
const ALL_ENGINES = ["sqlite", "postgres"] as const;
export type EngineName = (typeof ALL_ENGINES)[number];

/** The engines every store suite runs against: both, but SQLite alone under `npm run test:fast`. */
export const ENGINES: readonly EngineName[] = process.env.UPTIME_TESTS === "fast" ? ["sqlite"] : ALL_ENGINES;

let server: Promise<PrivatePostgres> | undefined;

/**
 * A new, empty database on the run's shared PostgreSQL (test/support/global-setup.ts), or, in a project
 * without it, on this file's own (started on first use, stopped when the file's process exits). Its URL.
 */
export async function newPostgresDatabase(): Promise<string> {
  const shared = inject("postgresUrl");
  if (shared) return await createDatabase(shared);
  server ??= startPostgres();
  return await (await server).createDatabase();
}

/** A new, empty database on `engine` and the options that open it (a key file of its own). */
export async function freshDatabase(engine: EngineName): Promise<{ db: string; secretKeyFile?: string }> {
  if (engine === "sqlite") return { db: ":memory:" };
  const db = await newPostgresDatabase();
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

/** Two stores on one new database of `engine`, as two replicas open it (SQLite: two connections to one file). */
export async function twoStores(engine: EngineName): Promise<[Store, Store]> {
  const options =
    engine === "sqlite"
      ? { db: join(mkdtempSync(join(tmpdir(), "uptime-two-stores-")), "uptime.db") }
      : await freshDatabase(engine);
  const first = await Store.open(options.db, { secretKeyFile: options.secretKeyFile });
  return [first, await Store.open(options.db, { secretKeyFile: options.secretKeyFile })];
}

/** `twoStores` for the tests of a block: each call opens a pair, closed (where still open) after the test. */
export function useTwoStores(engine: EngineName): () => Promise<[Store, Store]> {
  const open: Store[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) if (store.isOpen) await store.close();
  });
  return async () => {
    const pair = await twoStores(engine);
    open.push(...pair);
    return pair;
  };
}

/** A store of the tests of a block, with one account and a maker of its monitors. */
export interface AccountStore {
  /** The store of the running test: a new, empty database each test. */
  store: Store;
  /** The account `acme` of that store. */
  accountId: string;
  /** Creates an http monitor named `name` (checked every 60 s) in the account: its id. */
  create(name: string): Promise<string>;
}

/** For each test of a block: a store over a new database of `engine` with one account, closed after the test. */
export function useAccountStore(engine: EngineName): AccountStore {
  const ctx: AccountStore = {
    store: undefined as unknown as Store,
    accountId: "",
    create: async (name) =>
      (
        await ctx.store.monitors.create(
          ctx.accountId,
          toMonitorSpec({ name, type: "http", url: "https://x.example", interval_sec: 60 }),
        )
      ).id,
  };
  beforeEach(async () => {
    ctx.store = await openTestStore(engine);
    const { key } = await ctx.store.keys.create("acme", null);
    ctx.accountId = (await ctx.store.keys.authenticate(key))?.accountId as string;
  });
  afterEach(async () => await ctx.store.close());
  return ctx;
}
