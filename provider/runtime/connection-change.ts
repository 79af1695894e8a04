/**
 * How a diff treats the connection: a new API key, or another spelling of the same service, is
 * an in-place update that rewrites what state records (no request to the object); only an object
 * that the new endpoint does not hold is a replacement, and the preview says why.
 */
import { type Connection, normalBaseUrl, type PartialConnection, SOURCE_NAMES } from "../client/connection";
import type { Props } from "../kinds/values";

/** The connection settings a resource recorded, for comparison (undefined ones left out). */
function settings(connection: unknown): Record<string, string> {
  if (!connection || typeof connection !== "object") return {};
  const c = connection as PartialConnection;
  const out: Record<string, string> = {};
  if (c.baseUrl) out.baseUrl = safeNormal(c.baseUrl);
  if (c.apiKey) out.apiKey = c.apiKey;
  if (c.allowInsecureHttp !== undefined) out.allowInsecureHttp = String(c.allowInsecureHttp);
  return out;
}

const safeNormal = (url: string) => {
  try {
    return normalBaseUrl(url);
  } catch {
    return url;
  }
};

/** Whether the resource's own `connection` (its key, its URL spelling) differs from what state recorded. */
export function connectionArgChanged(olds: Props, news: Props): boolean {
  const before = settings(olds.connection);
  const after = settings(news.connection);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].some((k) => before[k] !== after[k]);
}

/** The endpoint state recorded, in normal form, if it differs from the one now resolved. */
export function movedFrom(olds: Props, connection: Connection): string | undefined {
  if (typeof olds.endpoint !== "string") return undefined;
  const before = safeNormal(olds.endpoint);
  return before === connection.baseUrl ? undefined : before;
}

/** The warning a preview shows when a changed endpoint forces a replacement. */
export function movedWarning(kind: string, id: string, from: string, to: string): string {
  return (
    `warning: ${kind} ${id} is not found at the new endpoint ${to} (it was created at ${from}), so it will be ` +
    `replaced: a new one is created at ${to} and the one at ${from} deleted. If ${to} is the same service, check ` +
    "the URL and the API key; to keep the object, set the endpoint back."
  );
}

/** Where the key of a call came from, for a 401's message; read and delete use what state recorded. */
export function keyFrom(connection: Connection, action: string): string | undefined {
  if (!connection.apiKeySource) return undefined;
  const where = SOURCE_NAMES[connection.apiKeySource].apiKey;
  const fromState = connection.apiKeySource === "connection" && (action === "read" || action === "delete");
  return fromState ? `${where}, as recorded in state by the last \`pulumi up\`` : where;
}
