import { MONITOR_ROWS, monitorParam } from "./monitor-rows";
import type { Executor, PrepareOptions, RunResult, SqlValue, Statement, TransactionOptions } from "./sql/executor";

/** The table a plain write statement changes. */
const WRITTEN_TABLE = /^\s*(?:INSERT\s+(?:OR\s+[a-z]+\s+)?INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b/i;
/** A statement that only reads. */
const READ = /^\s*SELECT\b/i;
/** A statement that may write, though not a plain write (a CTE with a write, DDL): `*`, every table. */
const MAY_WRITE = /\b(?:INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i;
/** Statement texts classified; past this many (texts with a varying number of `?`), the memo starts over. */
const MEMO_MAX = 5_000;

/** What a statement text writes: a table, `*` (it may write any), or undefined for a read. */
export function writtenTable(sql: string): string | undefined {
  const table = WRITTEN_TABLE.exec(sql)?.[1];
  if (table) return table.toLowerCase();
  return READ.test(sql) || !MAY_WRITE.test(sql) ? undefined : "*";
}

/**
 * The executor `db`, telling `wrote(table, monitorId)` of each write once it has committed (at once
 * outside a transaction; never when it rolls back); `monitorId` when the write changes rows of one
 * monitor only (`monitorParam`). Writes are known by their statement's text, whichever
 * repository runs them, so that what a cache holds is emptied by every write of this process,
 * the way `ExternalCommits` tells of other processes' writes.
 */
export class WriteWatch implements Executor {
  /** Per statement text: the table it writes and the parameter naming its rows' monitor, or null for a read. */
  private readonly memo = new Map<string, { table: string; monitor: number | undefined } | null>();

  constructor(
    private readonly db: Executor,
    private readonly wrote: (table: string, monitorId?: string) => void,
  ) {}

  get engine(): Executor["engine"] {
    return this.db.engine;
  }
  get dialect(): Executor["dialect"] {
    return this.db.dialect;
  }
  get isOpen(): boolean {
    return this.db.isOpen;
  }
  get processToken(): number {
    return this.db.processToken;
  }
  get inTransaction(): boolean {
    return this.db.inTransaction;
  }
  get externalVersionInMemory(): boolean {
    return this.db.externalVersionInMemory;
  }

  prepare(sql: string, options?: PrepareOptions): Statement {
    const statement = this.db.prepare(sql, options);
    let known = this.memo.get(sql);
    if (known === undefined) {
      if (this.memo.size >= MEMO_MAX) this.memo.clear();
      const table = writtenTable(sql);
      known = table === undefined ? null : { table, monitor: MONITOR_ROWS.has(table) ? monitorParam(sql) : undefined };
      this.memo.set(sql, known);
    }
    if (known === null) return statement;
    const { table, monitor } = known;
    // A batch's write to rows of several monitors (`PrepareOptions.rows` over a table of `MONITOR_ROWS`): told as each monitor's.
    const rows = MONITOR_ROWS.has(table) ? options?.rows : undefined;
    const told = (params: SqlValue[]) => {
      if (rows) {
        const ids = (JSON.parse(String(params[rows.param])) as Record<string, unknown>[]).map((r) =>
          String(r[rows.key]),
        );
        this.db.afterCommit(() => {
          for (const id of ids) this.wrote(table, id);
        });
        return;
      }
      const id = monitor === undefined ? undefined : params[monitor];
      this.db.afterCommit(() => this.wrote(table, typeof id === "string" ? id : undefined));
    };
    return {
      get: async (...params: SqlValue[]): Promise<unknown> => {
        const row = await statement.get(...params);
        told(params);
        return row;
      },
      all: async (...params: SqlValue[]): Promise<unknown[]> => {
        const rows = await statement.all(...params);
        told(params);
        return rows;
      },
      run: async (...params: SqlValue[]): Promise<RunResult> => {
        const result = await statement.run(...params);
        told(params);
        return result;
      },
    };
  }

  async exec(sql: string): Promise<void> {
    await this.db.exec(sql);
    if (writtenTable(sql) !== undefined) this.db.afterCommit(() => this.wrote("*"));
  }

  async transaction<T>(fn: () => Promise<T>, options?: TransactionOptions): Promise<T> {
    return await this.db.transaction(fn, options);
  }
  afterCommit(fn: () => void): void {
    this.db.afterCommit(fn);
  }
  async probeWrite(): Promise<void> {
    await this.db.probeWrite();
  }
  async sizeBytes(): Promise<number> {
    return await this.db.sizeBytes();
  }
  async externalVersion(tables?: readonly string[]): Promise<number | undefined> {
    return await this.db.externalVersion(tables);
  }
  onExternalRows(listener: (table: string, ids: readonly string[]) => void): void {
    this.db.onExternalRows(listener);
  }
  async joinCheckers(joined: boolean): Promise<void> {
    await this.db.joinCheckers(joined);
  }
  async checkers(): Promise<number[] | undefined> {
    return await this.db.checkers();
  }
  async compact(): Promise<void> {
    await this.db.compact();
  }
  async background<T>(fn: () => Promise<T>): Promise<T> {
    return await this.db.background(fn);
  }
  async close(): Promise<void> {
    await this.db.close();
  }
}
