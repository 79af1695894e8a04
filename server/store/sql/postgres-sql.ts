/** The SQL texts PostgreSQL reads differently from SQLite: placeholders and the migrations' types. */

const numbered = new Map<string, string>();

/** `?` placeholders as PostgreSQL's `$1, $2, …` (a `?` inside a quoted string is left alone). */
export function postgresPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text !== undefined) return text;
  let n = 0;
  text = sql.replace(/'(?:[^']|'')*'|\?/g, (match) => (match === "?" ? `$${++n}` : match));
  if (numbered.size >= 1000) numbered.clear();
  numbered.set(sql, text);
  return text;
}

/**
 * A migration written for SQLite, in PostgreSQL's types: integers are 64-bit (times are epoch
 * milliseconds), blobs are `bytea`, and SQLite's `WITHOUT ROWID` has no counterpart.
 */
export function postgresDdl(sql: string): string {
  return sql
    .replace(/\bINTEGER\b/g, "BIGINT")
    .replace(/\bBLOB\b/g, "BYTEA")
    .replace(/\)\s*WITHOUT ROWID/g, ")");
}
