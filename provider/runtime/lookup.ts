import { clientFor } from "../client/client";
import type { Connection } from "../client/connection";
import { hasCode } from "../client/errors";
import { hasExtensions } from "../client/extensions";
import type { Kind } from "../kinds/kind";
import type { Failure, Props } from "../kinds/values";
import { KINDS, type KindName } from "../kinds/registry";

/** The field a kind is looked up by besides its id: a status page's slug, every other kind's name. */
export const LOOKUP_KEYS: Readonly<Record<KindName, "name" | "slug">> = Object.freeze({
  Monitor: "name",
  Channel: "name",
  StatusPage: "slug",
  MaintenanceWindow: "name",
});

/** What a lookup asks for: exactly one of `id` and the kind's key (`name`, or a status page's `slug`). */
export interface LookupQuery {
  id?: string;
  name?: string;
  slug?: string;
}

/**
 * A lookup that found no object, or more than one: `code` is `lookup_not_found` or
 * `lookup_ambiguous`, `matches` how many objects matched.
 */
export class UptimeLookupError extends Error {
  constructor(
    readonly code: "lookup_not_found" | "lookup_ambiguous",
    readonly matches: number,
    message: string,
  ) {
    super(message);
    this.name = "UptimeLookupError";
  }
}

/** The failures of a query before any request: exactly one of `id` and the kind's key, non-empty. */
export function lookupFailures(kind: KindName, query: LookupQuery): Failure[] {
  const key = LOOKUP_KEYS[kind];
  const given = (["id", key] as const).filter((p) => query[p] !== undefined && query[p] !== null);
  const bad = given.filter((p) => typeof query[p] !== "string" || query[p] === "");
  if (bad.length) return bad.map((p) => ({ property: p, reason: `${p}: must be a non-empty string` }));
  if (given.length === 1) return [];
  const reason = given.length === 0 ? `give either id or ${key}` : `give either id or ${key}, not both`;
  return [{ property: given.length === 0 ? "id" : key, reason: `${given.length === 0 ? "id" : key}: ${reason}` }];
}

type Live = { id: string } & Record<string, unknown>;

/** What the account has of a kind, by `key`, for a lookup that matched none: the first 10, and how many. */
function accountHas(label: string, key: string, all: readonly Live[]): string {
  if (!all.length) return `the account has no ${label}s: make it first, or check \`uptime:baseUrl\` and the API key`;
  const shown = all.slice(0, 10).map((o) => JSON.stringify(o[key]));
  return `the account's ${label}s are ${shown.join(", ")}${all.length > 10 ? ` and ${all.length - 10} more` : ""}: check the ${key}'s spelling`;
}

/** The live object `id`; undefined when there is none (by listing where the server lacks GET by id). */
async function byId(kind: Kind<{ id: string }>, connection: Connection, id: string): Promise<Live | undefined> {
  const client = clientFor(connection);
  if (kind.byIdIsExtension && !(await hasExtensions(client))) {
    return (await client.listAll<Live>(kind.path)).find((o) => o.id === id);
  }
  try {
    return (await client.request<Live>("GET", `${kind.path}/${encodeURIComponent(id)}`)).data;
  } catch (err) {
    if (hasCode(err, "not_found")) return undefined;
    throw err;
  }
}

/**
 * The one live object of a kind that the query names, as a resource's outputs (camelCase, with
 * `id`): by id, or by exact name (slug) among all the account's objects of the kind. No match,
 * or more than one, is an `UptimeLookupError` that says how many matched.
 */
export async function findOne(name: KindName, query: LookupQuery, connection: Connection): Promise<Props> {
  const failures = lookupFailures(name, query);
  if (failures.length) throw new Error(`get${name}: ${failures.map((f) => f.reason).join("; ")}`);
  const kind = KINDS[name] as unknown as Kind<{ id: string }>;
  const key = LOOKUP_KEYS[name];
  let found: Live;
  if (query.id !== undefined) {
    const live = await byId(kind, connection, query.id);
    if (!live)
      throw new UptimeLookupError(
        "lookup_not_found",
        0,
        `get${name}: there is no ${kind.label} with id ${query.id} at ${connection.baseUrl}`,
      );
    found = live;
  } else {
    const wanted = query[key] as string;
    const all = await clientFor(connection).listAll<Live>(kind.path);
    const matches = all.filter((o) => o[key] === wanted);
    if (matches.length !== 1) {
      const which = matches.length
        ? ` (${matches.map((m) => m.id).join(", ")}); give its id instead`
        : `; ${accountHas(kind.label, key, all)}`;
      throw new UptimeLookupError(
        matches.length ? "lookup_ambiguous" : "lookup_not_found",
        matches.length,
        `get${name}: ${key} "${wanted}" matches ${matches.length} ${kind.label}s at ${connection.baseUrl}, not exactly 1${which}`,
      );
    }
    found = matches[0] as Live;
  }
  return { ...kind.outputs(found, {}, connection), id: found.id };
}
