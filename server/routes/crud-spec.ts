import type { z } from "zod";
import type { ListQuery } from "../../api";
import type { ListPage } from "../services/paging";
import type { Principal } from "../store/keys";

/** What a kind's service offers to its CRUD routes. */
export interface CrudService<T, C, U, Q extends ListQuery> {
  list(principal: Principal, query: Q): Promise<ListPage<T>>;
  create(principal: Principal, body: C): Promise<T>;
  get(principal: Principal, id: string): Promise<T>;
  update(principal: Principal, id: string, body: U): Promise<T>;
  delete(principal: Principal, id: string): Promise<T>;
}

/** One kind's collection: its path, schemas and service. */
export interface CrudSpec<I extends z.ZodType, C extends z.ZodType, U extends z.ZodType, Q extends z.ZodType> {
  /** The collection, e.g. `/api/v1/channels`; items live at `<path>/:id`. */
  path: string;
  tag: string;
  /** Written on each route; the operation table's own summary wins, and this one becomes the description. */
  summary?: string;
  item: I;
  create: C;
  /**
   * The create body as the document states it, when it is not `create` itself (the monitor's
   * union by type); requests are still validated by `create`, whose messages are the API's.
   */
  documentedCreate?: z.ZodType;
  update: U;
  query: Q;
  /** The `id` path parameter with the kind's prefix. */
  params: z.ZodType<{ id: string }>;
  service: CrudService<z.output<I>, z.output<C>, z.output<U>, z.output<Q> & ListQuery>;
  /** Whether get/PATCH/DELETE of one item are served (extensions beyond the seed may be off). */
  itemRoutes: boolean;
  /** Answers the create call may add (e.g. 403 for the monitor cap, 409 for a taken slug). */
  createErrors?: number[];
  /** Answers a PATCH may add (every PATCH may answer 409: an `external_id` another object holds). */
  updateErrors?: number[];
}
