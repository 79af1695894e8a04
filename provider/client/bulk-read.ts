import type { UptimeClient } from "./client";

/**
 * How long a list answers reads. A provider process serves one engine operation, so this only
 * bounds how stale a refresh of many resources may be; any write through the client ends it sooner.
 */
export const PREFETCH_TTL_MS = 30_000;

interface Prefetch {
  /** The client's write counter when the list was asked for: any write since makes it stale. */
  writes: number;
  /** When the list was complete (ms); 0 while it is still loading. */
  loadedAt: number;
  objects: Promise<Map<string, { id: string }>>;
}

const prefetches = new WeakMap<UptimeClient, Map<string, Prefetch>>();

function fresh(p: Prefetch, client: UptimeClient): boolean {
  return p.writes === client.writes && (p.loadedAt === 0 || Date.now() - p.loadedAt < PREFETCH_TTL_MS);
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
  const p: Prefetch = { writes: client.writes, loadedAt: 0, objects: Promise.resolve(new Map()) };
  p.objects = client.listAll<{ id: string }>(path).then((all) => {
    p.loadedAt = Date.now();
    return new Map(all.map((o) => [o.id, o]));
  });
  // A failed list is never kept: the reads that shared it fall back to one GET each.
  p.objects.catch(() => {
    if (byPath.get(path) === p) byPath.delete(path);
  });
  byPath.set(path, p);
  return p;
}

/**
 * The object `id` of the collection `path`, answered from one list of the whole collection
 * (pages of 200) shared by every read on this connection, so refreshing N resources costs about
 * N/200 requests. Undefined when the list has no such id, was written to since, or failed: the
 * caller then asks for the object by id, which also confirms a deletion with one request.
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
