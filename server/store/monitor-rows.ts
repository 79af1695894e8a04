/**
 * Tables whose every row belongs to one monitor, by the column that names it: a write to such a
 * row changes what is shown of that monitor only (its health, checks, roll-ups, down periods).
 * On PostgreSQL a commit that also wrote those monitors' own rows is announced as those rows
 * only (see `PostgresExecutor.announce`): a reader of these tables' rows subscribes to `monitors`.
 */
export const MONITOR_ROWS: ReadonlyMap<string, string> = new Map([
  ["monitors", "id"],
  ["heartbeats", "monitor_id"],
  ["heartbeat_days", "monitor_id"],
  ["location_days", "monitor_id"],
  ["location_health", "monitor_id"],
  ["check_streaks", "monitor_id"],
  ["incidents", "monitor_id"],
  ["maintenance_window_monitors", "monitor_id"],
]);

const INSERT = /^\s*INSERT\s+(?:OR\s+[a-z]+\s+)?INTO\s+([a-z_]+)\s*\(([^)]*)\)\s*VALUES\s*\(/i;
const UPDATE_OR_DELETE = /^\s*(?:UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b/i;
const WHERE = /\bWHERE\b/i;

/** The top-level items of a parenthesized list that starts at `from` (after its `(`), and where it ends. */
function listItems(sql: string, from: number): { items: string[]; end: number } | undefined {
  const items: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'") {
      // A literal ('' inside is a quote): skipped whole.
      for (i++; i < sql.length; i++) {
        if (sql[i] === "'" && sql[i + 1] === "'") i++;
        else if (sql[i] === "'") break;
      }
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")" && depth > 0) depth--;
    else if (c === ")" || (c === "," && depth === 0)) {
      items.push(sql.slice(start, i).trim());
      start = i + 1;
      if (c === ")") return { items, end: i + 1 };
    }
  }
  return undefined;
}

/** The `?` marks of `text` outside literals. */
const marks = (text: string) => text.replace(/'(?:[^']|'')*'/g, "").split("?").length - 1;

/**
 * The index of the parameter that names the one monitor whose rows the write statement `sql`
 * changes, for a table of `MONITOR_ROWS`: the monitor's column given as a plain `?` in an
 * `INSERT` of one row, or compared with `=` to a plain `?` in an `UPDATE`'s or `DELETE`'s `WHERE`
 * of `AND`s only. Undefined for anything else (the statement may change rows of any monitor).
 */
export function monitorParam(sql: string): number | undefined {
  const insert = INSERT.exec(sql);
  if (insert) {
    const column = MONITOR_ROWS.get((insert[1] as string).toLowerCase());
    if (!column) return undefined;
    const columns = (insert[2] as string).split(",").map((c) => c.trim().toLowerCase());
    const at = columns.indexOf(column);
    const values = listItems(sql, insert[0].length);
    if (at < 0 || !values || values.items.length !== columns.length || values.items[at] !== "?") return undefined;
    // One row only: `VALUES (…), (…)` writes rows of several monitors.
    if (/^\s*,/.test(sql.slice(values.end))) return undefined;
    return marks(values.items.slice(0, at).join(","));
  }
  const write = UPDATE_OR_DELETE.exec(sql);
  if (!write) return undefined;
  const column = MONITOR_ROWS.get((write[1] as string).toLowerCase());
  const where = WHERE.exec(sql);
  if (!column || !where) return undefined;
  const condition = sql.slice(where.index + where[0].length);
  // A condition of `AND`s between plain comparisons: the rows all have the compared monitor.
  if (/\bOR\b|\(|'/i.test(condition)) return undefined;
  const compared = new RegExp(`(?:^|[\\s.])${column}\\s*=\\s*\\?`, "i").exec(condition);
  if (!compared) return undefined;
  return marks(sql.slice(0, where.index + where[0].length + compared.index + compared[0].length - 1));
}
