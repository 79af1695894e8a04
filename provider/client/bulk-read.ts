import type { UptimeClient } from "./client";

interface Prefetch {
  /** The client's write counter when the list was asked for: any write since makes it stale. */
  writes: number;
  objects: Promise<Map<string, { id: string }>>;
}

const prefetches = new WeakMap<UptimeClient, Map<string, Prefetch>>();

/**
 * A list answers reads until the next write through the client. A provider process serves one
 * engine operation, so one refresh lists each collection once however long it takes (a refresh
 * of thousands of resources outlasts any fixed lifetime); the next operation lists anew.
 */
function fresh(p: Prefetch, client: UptimeClient): boolean {
  return p.writes === client.writes;
}

/** The prefetch of a collection on a connection: the current one, or a new list of every page. */
function prefetchOf(client: UptimeClient, path: string): Prefetch {
  let byPath = prefetches.get(client);
  if (!byPath) {
    byPath = new Map();
    prefetches.set(client, byPath);
  }
  const current = byPath.get(path);
  if (current && fresh(current, client)) return current;
  const p: Prefetch = { writes: client.writes, objects: Promise.resolve(new Map()) };
  p.objects = client.listAll<{ id: string }>(path).then((all) => new Map(all.map((o) => [o.id, o])));
  // A failed list is never kept: the reads that shared it fall back to one GET each.
  p.objects.catch(() => {
    if (byPath.get(path) === p) byPath.delete(path);
  });
  byPath.set(path, p);
  return p;
}

/**
 * The object `id` of the collection `path`, answered from one list of the whole collection (the
 * API's largest pages, `LIST_LIMIT_MAX`) shared by every read on this connection, so refreshing N
 * resources costs about N/`LIST_LIMIT_MAX` requests. Undefined when the list has no such id, was
 * written to since, or failed: the caller then asks for the object by id, which also confirms a
 * deletion with one request.
 */
export async function prefetched(client: UptimeClient, path: string, id: string): Promise<{ id: string } | undefined> {
  const p = prefetchOf(client, path);
  let objects: Map<string, { id: string }>;
  try {
    objects = await p.objects;
  } catch {
    return undefined;
  }
  // A write that started while the list was loading may have changed what it holds.
  return p.writes === client.writes ? objects.get(id) : undefined;
}
