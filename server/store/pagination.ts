/** One page of a list, in creation order. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A cursor this API did not hand out; the service layer answers it as a 422 naming `cursor`. */
export class InvalidCursorError extends Error {
  readonly code = "invalid_cursor";
  constructor() {
    super("is not a cursor returned by this API");
    this.name = "InvalidCursorError";
  }
}

interface Position {
  created_at: string;
  id: string;
}

/** The opaque cursor after `row`: its creation time and id, the list's sort key. */
export function encodeCursor(row: Position): string {
  return Buffer.from(JSON.stringify([row.created_at, row.id])).toString("base64url");
}

export function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [created_at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof created_at === "string" && typeof id === "string") return { created_at, id };
  } catch {
    // fall through to the error
  }
  throw new InvalidCursorError();
}

/**
 * SQL condition and parameters that start a page after `cursor`, on tables sorted by
 * (created_at, id). Use with `ORDER BY created_at, id LIMIT limit + 1`.
 */
export function afterCursor(cursor: string | undefined): { sql: string; params: string[] } {
  const pos = decodeCursor(cursor);
  if (!pos) return { sql: "1 = 1", params: [] };
  return {
    sql: "(created_at > ? OR (created_at = ? AND id > ?))",
    params: [pos.created_at, pos.created_at, pos.id],
  };
}

/** Cuts the extra row fetched to learn whether another page follows. */
export async function toPage<R extends Position, T>(
  rows: R[],
  limit: number,
  map: (rows: R[]) => T[] | Promise<T[]>,
): Promise<Page<T>> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { items: await map(kept), nextCursor: more && last ? encodeCursor(last) : null };
}
