import type { DatabaseSync, StatementSync } from "node:sqlite";

/** Distinct SQL texts kept; lists with `IN (?, …)` of many lengths cannot grow it past this. */
const MAX_STATEMENTS = 1000;

/**
 * The database with `prepare()` memoized by SQL text: repositories call `prepare` on every query,
 * and compiling the same SQL again cost more than running it. Every other member is the
 * database's own. Statements are only run with `get`/`all`/`run`, so reusing one is safe.
 */
export function withStatementCache(db: DatabaseSync): DatabaseSync {
  const cache = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= MAX_STATEMENTS) cache.clear();
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
