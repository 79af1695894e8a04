/**
 * The few SQL expressions the engines spell differently. Repositories build those statements
 * from these pieces; every other statement is the same text on both engines.
 */
export interface Dialect {
  /** The smaller of two values (SQLite's two-argument `MIN`, PostgreSQL's `LEAST`). */
  least(a: string, b: string): string;
  /** The larger of two values. */
  greatest(a: string, b: string): string;
  /** The JSON text column's member `key` as SQL text or number (null when absent or JSON null). */
  jsonMember(column: string, key: string): string;
  /** A condition: the JSON text column's array member `key` holds the text parameter `?`. */
  jsonArrayHas(column: string, key: string): string;
  /** A JSON array (as text, `[]` for none) of `expr` over the rows, sorted by `expr`. */
  jsonArrayOf(expr: string): string;
  /** An inner join that keeps the left table the outer loop (SQLite's `CROSS JOIN`; PostgreSQL plans it itself). */
  leftFirstJoin: string;
  /**
   * A condition: the process whose `Executor.processToken` the column holds no longer uses the
   * database. One `?` placeholder: this process's token (never gone).
   */
  processGone(column: string): string;
  /**
   * A table of the rows of a JSON array of objects bound to one `?` placeholder, named `alias`,
   * with the objects' members `columns` as typed columns (absent or JSON null: SQL NULL): a batch
   * of rows written or looked up by one statement, whatever its size.
   */
  jsonRows(alias: string, columns: Readonly<Record<string, JsonRowType>>): string;
  /** A JSON object (as text) of these members, each an SQL expression; a member may be a `jsonArrayIn`. */
  jsonObject(members: Readonly<Record<string, string>>): string;
  /** A JSON array of `expr` over the rows, sorted by `expr`, as a member of a `jsonObject` (`[]` for none). */
  jsonArrayIn(expr: string): string;
}

/** The type of a column of `Dialect.jsonRows`. */
export type JsonRowType = "text" | "integer";

/** SQLite's spelling (its JSON1 functions). */
export const SQLITE_DIALECT: Dialect = {
  least: (a, b) => `MIN(${a}, ${b})`,
  greatest: (a, b) => `MAX(${a}, ${b})`,
  jsonMember: (column, key) => `json_extract(${column}, '$.${key}')`,
  jsonArrayHas: (column, key) => `EXISTS (SELECT 1 FROM json_each(${column}, '$.${key}') WHERE value = ?)`,
  jsonArrayOf: (expr) => `json_group_array(${expr} ORDER BY ${expr})`,
  leftFirstJoin: "CROSS JOIN",
  // One process serves a SQLite file: a token of another is a process that ended (a crash, then
  // the restart that opened the file again).
  processGone: (column) => `(${column} IS NULL OR ${column} <> ?)`,
  jsonRows: (alias, columns) =>
    `(SELECT ${Object.keys(columns)
      .map((c) => `value ->> '$.${c}' AS ${c}`)
      .join(", ")} FROM json_each(?)) AS ${alias}`,
  jsonObject: (members) =>
    `json_object(${Object.entries(members)
      .map(([k, v]) => `'${k}', ${v}`)
      .join(", ")})`,
  jsonArrayIn: (expr) => `json_group_array(${expr} ORDER BY ${expr})`,
};

/** PostgreSQL's spelling (its `jsonb` operators over the same text columns). */
export const POSTGRES_DIALECT: Dialect = {
  least: (a, b) => `LEAST(${a}, ${b})`,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  jsonMember: (column, key) => `(${column}::jsonb ->> '${key}')`,
  jsonArrayHas: (column, key) =>
    `EXISTS (SELECT 1 FROM jsonb_array_elements_text(${column}::jsonb -> '${key}') AS t(value) WHERE t.value = ?)`,
  jsonArrayOf: (expr) => `COALESCE(json_agg(${expr} ORDER BY ${expr})::text, '[]')`,
  leftFirstJoin: "JOIN",
  // The token is a session's advisory lock: taken here (until this statement's transaction ends)
  // only when no session holds it any more.
  processGone: (column) => `(${column} IS NULL OR (${column} <> ? AND pg_try_advisory_xact_lock(${column})))`,
  jsonRows: (alias, columns) =>
    `json_to_recordset(?::json) AS ${alias}(${Object.entries(columns)
      .map(([c, type]) => `${c} ${type === "integer" ? "bigint" : "text"}`)
      .join(", ")})`,
  jsonObject: (members) =>
    `json_build_object(${Object.entries(members)
      .map(([k, v]) => `'${k}', ${v}`)
      .join(", ")})::text`,
  jsonArrayIn: (expr) => `COALESCE(json_agg(${expr} ORDER BY ${expr}), '[]'::json)`,
};
