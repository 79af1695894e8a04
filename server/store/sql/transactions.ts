import { AsyncLocalStorage } from "node:async_hooks";

/** A transaction in progress; `open` turns false at its end (work it started late runs outside it). */
export interface TransactionScope {
  open: boolean;
  depth: number;
  /** Nested transactions join this one without savepoints. */
  flat: boolean;
  /** What runs once the transaction commits (see `Executor.afterCommit`). */
  committed: (() => void)[];
}

/** How an engine begins, commits and rolls back its outermost transaction. */
export interface TransactionSteps {
  begin(): unknown;
  commit(): unknown;
  /** Undoes what the transaction wrote after any failure (of `begin` and `commit` too). */
  rollback(): unknown;
  /** Runs once the transaction ended, either way: frees what it held (its connection). */
  end(): void;
}

/** How an engine runs a savepoint's statements, and undoes what a failed savepoint `name` wrote. */
export interface SavepointSteps {
  exec(sql: string): unknown;
  rollback(name: string): string;
}

/**
 * The transactions of one executor: which one the running code belongs to (through everything it
 * awaits), nested ones as savepoints, and the work that waits for the commit. The engine says how
 * its statements run (`TransactionSteps`, `SavepointSteps`).
 */
export class Transactions<S extends TransactionScope> {
  private readonly scope = new AsyncLocalStorage<S>();

  /** The open transaction the caller runs in, if any. */
  get current(): S | undefined {
    const scope = this.scope.getStore();
    return scope?.open ? scope : undefined;
  }

  /**
   * Runs `fn` as the outermost transaction `scope`, through `steps`; once it committed, the work
   * that waited for the commit (none when it rolled back).
   */
  async outermost<T>(scope: S, fn: () => Promise<T>, steps: TransactionSteps): Promise<T> {
    let result: T;
    try {
      await steps.begin();
      result = await this.scope.run(scope, fn);
      await steps.commit();
    } catch (err) {
      await steps.rollback();
      throw err;
    } finally {
      scope.open = false;
      steps.end();
    }
    for (const committed of scope.committed) committed();
    return result;
  }

  /**
   * Runs `fn` as `inner`, a savepoint inside `outer`: its failure undoes only its own writes; once
   * released, the work it leaves for the commit joins `outer`'s.
   */
  async savepoint<T>(outer: S, inner: S, fn: () => Promise<T>, steps: SavepointSteps): Promise<T> {
    const name = `nested_${inner.depth}`;
    await steps.exec(`SAVEPOINT ${name}`);
    try {
      const result = await this.scope.run(inner, fn);
      await steps.exec(`RELEASE SAVEPOINT ${name}`);
      outer.committed.push(...inner.committed);
      return result;
    } catch (err) {
      await steps.exec(steps.rollback(name));
      throw err;
    }
  }

  /** Runs `fn` once the caller's transaction has committed (at once outside one; never when it rolls back). */
  afterCommit(fn: () => void): void {
    const scope = this.current;
    if (scope) scope.committed.push(fn);
    else fn();
  }
}
