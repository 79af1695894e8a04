import { validationFailed } from "../errors";
import { InvalidCursorError, type Page } from "../store/pagination";

/** One page of a list in the API's shape: `data` and `next_cursor`. */
export interface ListPage<T> {
  data: T[];
  next_cursor: string | null;
}

/** Reads one page from the store; a cursor it did not hand out is a 422 naming `cursor`. */
export async function listPage<T>(read: () => Promise<Page<T>>): Promise<ListPage<T>> {
  try {
    const page = await read();
    return { data: page.items, next_cursor: page.nextCursor };
  } catch (err) {
    if (err instanceof InvalidCursorError) throw validationFailed([{ field: "cursor", message: err.message }]);
    throw err;
  }
}
