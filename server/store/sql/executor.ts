import { randomInt } from "node:crypto";
import type { Dialect } from "./dialect";

/** A value bound to a statement's `?` placeholder. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** What a write changed. */
export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/** One SQL text, run with its parameters: the only way repositories reach the database. */
export interface Statement {
  /** The first row, or undefined when there is none. */
  get(...params: SqlValue[]): Promise<unknown>;
  /** Every row. */
  all(...params: SqlValue[]): Promise<unknown[]>;
  /** Runs a write. */
  run(...params: SqlValue[]): Promise<RunResult>;
}

/** What a statement tells other processes when it writes (see `Executor.prepare`). */
export interface PrepareOptions {
  /**
   * The write changes one row only, whose id is the parameter at this index (from 0): other
   * processes are told of that row (see `Executor.onExternalRows`), not of a write to the table.
   * A write to rows of one monitor in a table of `MONITOR_ROWS` needs none: it is told as that
   * monitor's (`monitorParam` finds the parameter).
   */
  row?: number;
  /**
   * The write changes some rows only, whose ids are member `key` of each object of the JSON array
   * bound to the parameter at index `param` (see `Dialect.jsonRows`): other processes are told of
   * those rows, as with `row`.
   */
  rows?: { param: number; key: string };
}

/** How `Executor.transaction` runs. */
export interface TransactionOptions {
  /** Nested transactions join this one without savepoints (see `Executor.transaction`). */
  flat?: boolean;
}

/** Which database an executor speaks to. */
export type Engine = "sqlite" | "postgres";

/**
 * The store's database, whichever engine holds it. Statements run inside `transaction(fn)` (and
 * everything `fn` awaits) belong to that transaction; every other statement waits for it or runs
 * on another connection, so a request never sees or joins another request's transaction.
 */
export interface Executor {
  /** The engine: the few statements that differ are chosen by it. */
  readonly engine: Engine;
  /** How this engine spells the few expressions that differ. */
  readonly dialect: Dialect;
  /** False once closed. */
  readonly isOpen: boolean;
  /**
   * This process among those using the database: a number no other live process holds, kept
   * for as long as the database is open. On PostgreSQL a session of the process holds it as an
   * advisory lock, so it is free the moment the process dies (PostgreSQL ends its session); see
   * `Dialect.processGone`, which asks whether the process that wrote a token is gone.
   */
  readonly processToken: number;
  /** Whether the caller runs inside a transaction (what it reads may still be rolled back). */
  readonly inTransaction: boolean;
  /** A statement for `sql` (with `?` placeholders); compiled once per text. */
  prepare(sql: string, options?: PrepareOptions): Statement;
  /** Runs SQL without parameters (several statements allowed). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in one write transaction: all of it is stored, or none. Inside another transaction
   * it is a savepoint: its failure undoes only its own writes. With `flat`, the transactions `fn`
   * opens join this one without savepoints (two round trips fewer each): a failure in any of
   * them must then end `fn` with it, and rolls all of it back.
   */
  transaction<T>(fn: () => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `fn` once the transaction under way has committed (at once outside one; never when it
   * rolls back): work that other connections must see the transaction's writes for.
   */
  afterCommit(fn: () => void): void;
  /** Why the database cannot take writes now (throws), taking and releasing its write lock. */
  probeWrite(): Promise<void>;
  /** The database's size in bytes. */
  sizeBytes(): Promise<number>;
  /**
   * A number that changes when another process commits (undefined: the engine cannot tell); with
   * `tables`, when it commits a write to one of them (an engine that cannot tell which tables
   * changes it with every commit).
   */
  externalVersion(tables?: readonly string[]): Promise<number | undefined>;
  /**
   * Whether `externalVersion` reads the process's own memory (announcements received, or a
   * database no other process can open), so that a look costs nothing worth sharing; false when
   * it reads the database's files or asks the database.
   */
  readonly externalVersionInMemory: boolean;
  /**
   * Calls `listener` as soon as this process learns that another committed writes to these rows
   * of `table` only (statements prepared with `row`); such writes leave `externalVersion` as it
   * was. An engine that cannot tell rows never calls it: it counts those writes in `externalVersion`.
   */
  onExternalRows(listener: (table: string, ids: readonly string[]) => void): void;
  /**
   * Marks this process as one that runs the built-in checker (`joined`), or as one that no longer
   * does, for as long as it lives: `checkers()` lists it. A process that dies leaves at once.
   */
  joinCheckers(joined: boolean): Promise<void>;
  /**
   * The `processToken`s of the live processes that joined the checkers, this one's included when
   * it joined; undefined where one process uses the database (SQLite).
   */
  checkers(): Promise<number[] | undefined>;
  /** Drops copies of overwritten rows the engine keeps on disk (after secrets were resealed). */
  compact(): Promise<void>;
  /**
   * Runs `fn`, background work (checks, deliveries), with its statements on connections of
   * their own where the engine has several, so that requests do not wait behind it.
   */
  background<T>(fn: () => Promise<T>): Promise<T>;
  /** Closes the connection(s). */
  close(): Promise<void>;
}

/**
 * A new `Executor.processToken`: random, and past 2^48 so that it is never one of the fixed
 * advisory locks (the migration's) on PostgreSQL.
 */
export function newProcessToken(): number {
  return 2 ** 48 + randomInt(2 ** 48 - 1);
}
