import type { UptimeClient } from "./client";

/** Answers that mean "no such document here", as opposed to a failure worth asking again. */
const NO_DOCUMENT = new Set([404, 405, 410, 501]);
const known = new Map<string, Promise<Set<string>>>();

/**
 * Whether the server has GET/PATCH/DELETE on channels and status pages. Its OpenAPI document
 * (itself an extension) says so; a server that answers that it has none (404, 405, 410, 501) has only the
 * documented endpoints. The question goes through the client (retries, rate budget, timeout);
 * an answer is kept per service for the process, a failure never is: it fails this call, and the
 * next call asks again, so one lost request cannot turn later updates into replaces.
 */
export async function hasExtensions(client: UptimeClient): Promise<boolean> {
  const paths = await documentedPaths(client);
  return paths.has("/api/v1/channels/{id}") && paths.has("/api/v1/status-pages/{id}");
}

/**
 * Whether the server takes batched writes of the collection `path` (`POST <path>/batch`, up to
 * 100 creates, updates and deletes per request), as its OpenAPI document says.
 */
export async function hasBatch(client: UptimeClient, path: string): Promise<boolean> {
  return (await documentedPaths(client)).has(`${path}/batch`);
}

/** The paths of the server's OpenAPI document; none for a server without one. */
function documentedPaths(client: UptimeClient): Promise<Set<string>> {
  const key = client.connection.baseUrl;
  let answer = known.get(key);
  if (!answer) {
    answer = ask(client);
    known.set(key, answer);
    answer.catch(() => known.delete(key));
  }
  return answer;
}

async function ask(client: UptimeClient): Promise<Set<string>> {
  let doc: { paths?: Record<string, unknown> };
  try {
    doc = (await client.request<typeof doc>("GET", "/api/v1/openapi.json", { raw: true })).data ?? {};
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (typeof status === "number" && NO_DOCUMENT.has(status)) return new Set();
    throw err;
  }
  return new Set(Object.keys(doc.paths ?? {}));
}
