/** An OpenAPI document as @fastify/swagger builds it: only the parts links need. */
interface Document {
  paths?: Record<string, Record<string, { responses?: Record<string, { links?: Record<string, unknown> }> }>>;
}

const pointer = (path: string, method: string) =>
  `#/paths/${path.replaceAll("~", "~0").replaceAll("/", "~1")}/${method}`;

/**
 * Adds OpenAPI links from each create operation (`POST /api/v1/<kind>`) to every operation on
 * `/api/v1/<kind>/{id}…`, with `id` taken from the created object: clients and generators such
 * as Schemathesis can then follow a create with reads, changes and deletes of that object.
 */
export function withLinks<T>(document: T): T {
  const paths = (document as Document).paths ?? {};
  for (const [collection, operations] of Object.entries(paths)) {
    const created = operations.post?.responses?.["201"];
    if (!created) continue;
    const links: Record<string, unknown> = {};
    for (const [path, byMethod] of Object.entries(paths)) {
      if (!path.startsWith(`${collection}/{id}`)) continue;
      for (const method of Object.keys(byMethod)) {
        const name = `${method}${path
          .slice(collection.length)
          .replace(/[^A-Za-z0-9]+/g, "_")
          .replace(/_+$/, "")}`;
        links[name] = { operationRef: pointer(path, method), parameters: { id: "$response.body#/data/id" } };
      }
    }
    if (Object.keys(links).length) created.links = links;
  }
  return document;
}
