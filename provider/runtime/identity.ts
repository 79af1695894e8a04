/**
 * Who created an object: the stack and resource identity the provider writes into each object's
 * `external_id`, and the deterministic `Idempotency-Key` of a create. Both survive a deployment
 * that was killed before Pulumi wrote its state: the next `pulumi up` sends the same key (the
 * server replays the first answer) or, past the key's 24 hours, finds the object by its mark and
 * takes it over, instead of creating a duplicate.
 */
import { createHash, createHmac } from "node:crypto";
import { EXTERNAL_ID_MAX } from "../../api/common";

/** The internal input that carries a resource's mark (set by the resource classes, never by users). */
export const IDENTITY_INPUT = "__identity";

/** The kinds a mark names. */
export type MarkedKind = "Monitor" | "Channel" | "StatusPage";

/** What identifies one resource of one stack. */
export interface ResourceIdentity {
  project: string;
  stack: string;
  kind: MarkedKind;
  name: string;
  /** The parent's URN, when the resource has an explicit parent (two parents may reuse a name). */
  parentUrn?: string;
}

const MARK_ROOT = "pulumi";

/** `pulumi/<project>/<stack>/`: the start of every mark of the stack's objects. */
export function stackMarkPrefix(project: string, stack: string): string {
  return `${MARK_ROOT}/${project}/${stack}/`;
}

const hash = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * `pulumi/<project>/<stack>/<Kind>/<name>`, plus `@<8 hex of the parent URN>` under an explicit
 * parent. Longer than the API's 255 characters, the name is cut and a hash of the whole keeps it
 * unique.
 */
export function markOf(identity: ResourceIdentity): string {
  const parent = identity.parentUrn ? `@${hash(identity.parentUrn).slice(0, 8)}` : "";
  // The API refuses control characters; a name with one (rare) keeps a readable, still unique mark.
  // eslint-disable-next-line no-control-regex -- the API refuses exactly these
  const name = identity.name.replace(/[\u0000-\u001f\u007f]/g, "_");
  const full = `${stackMarkPrefix(identity.project, identity.stack)}${identity.kind}/${name}${parent}`;
  if (full.length <= EXTERNAL_ID_MAX && name === identity.name) return full;
  const suffix = `~${hash(`${full}\n${identity.name}`).slice(0, 16)}`;
  let cut = full.slice(0, EXTERNAL_ID_MAX - suffix.length);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}${suffix}`;
}

/** JSON with object keys sorted: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sort(x)]))
        : v;
  return JSON.stringify(sort(value) ?? null);
}

/**
 * The `Idempotency-Key` of one logical create: an HMAC, keyed by the API key, of the mark and the
 * body as sent. The same program sends the same key after an interruption; another stack, another
 * resource or other inputs send another. The API key as HMAC key keeps secrets in the body (header
 * values, webhook URLs) unguessable from the key, which the server stores.
 */
export function createKey(apiKey: string, mark: string, body: unknown): string {
  const mac = createHmac("sha256", apiKey).update(`${mark}\n${canonicalJson(body)}`).digest("hex");
  return `pulumi-uptime-${mac}`;
}
