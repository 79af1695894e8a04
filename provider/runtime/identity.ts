/**
 * Who created an object: the stack and resource identity the provider writes into each object's
 * `external_id`, and the deterministic `Idempotency-Key` of a create. Both survive a deployment
 * that was killed before Pulumi wrote its state: the next `pulumi up` sends the same key (the
 * server replays the first answer) or, past the key's 24 hours, finds the object by its mark and
 * takes it over, instead of creating a duplicate.
 *
 * Project and stack names do not name a stack: two backends (two engineers' local `dev` stacks)
 * may hold stacks of the same names on one API key. So every mark also carries the stack
 * instance: a random id written to the stack's state before its first object is created (by the
 * `StackIdentity` resource of a program, or in the native plugin's provider inputs), which a
 * killed run leaves in place for the next one.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { EXTERNAL_ID_MAX } from "../../api/common";

/** The internal input that carries a resource's mark (set by the resource classes, never by users). */
export const IDENTITY_INPUT = "__identity";

/** The kinds a mark names. */
export const MARKED_KINDS = ["Monitor", "Channel", "StatusPage", "MaintenanceWindow"] as const;
export type MarkedKind = (typeof MARKED_KINDS)[number];

/** What identifies one resource of one stack. */
export interface ResourceIdentity {
  project: string;
  stack: string;
  /**
   * The stack instance (see `newStackInstance`); absent in identities written by versions before
   * it, whose marks are `pulumi/<project>/<stack>/<Kind>/<name>`.
   */
  instance?: string;
  kind: MarkedKind;
  name: string;
  /**
   * What tells apart two resources of one name under different parents: the parent's URN (the
   * resource classes), or the parent types of the resource's own URN (the native plugin, which
   * sees no parent URN; a URN is unique in its stack).
   */
  parentUrn?: string;
}

const MARK_ROOT = "pulumi";

/** A stack instance: 16 random hex digits. */
export const STACK_INSTANCE = /^[0-9a-f]{16}$/;

/** A new stack instance, made once per stack (per provider instance, in the native plugin). */
export function newStackInstance(): string {
  return randomBytes(8).toString("hex");
}

/** `pulumi/<project>/<stack>/`: the start of every mark of the stack's objects. */
export function stackMarkPrefix(project: string, stack: string): string {
  return `${MARK_ROOT}/${project}/${stack}/`;
}

/**
 * The stack instance a mark carries (`pulumi/<project>/<stack>/<instance>/<Kind>/…`), or
 * undefined for a mark without one (written before instances, or by someone else).
 */
export function instanceOfMark(mark: string): string | undefined {
  const [root, , , instance, kind] = mark.split("/");
  return root === MARK_ROOT &&
    instance &&
    STACK_INSTANCE.test(instance) &&
    (MARKED_KINDS as readonly string[]).includes(kind ?? "")
    ? instance
    : undefined;
}

/**
 * Whether a mark is one of this stack's: it carries one of the stack's instances (under any
 * project or stack name, so a renamed stack still knows its objects), or it is a mark without an
 * instance under the stack's project and stack names (written before instances).
 */
export function isStackMark(
  mark: string,
  stack: { project: string; stack: string; instances: ReadonlySet<string> },
): boolean {
  const instance = instanceOfMark(mark);
  if (instance) return stack.instances.has(instance);
  const prefix = stackMarkPrefix(stack.project, stack.stack);
  return MARKED_KINDS.some((kind) => mark.startsWith(`${prefix}${kind}/`));
}

const hash = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * `pulumi/<project>/<stack>/<instance>/<Kind>/<name>`, plus `@<8 hex of the parent URN>` under
 * an explicit parent (without an instance, for identities written before instances:
 * `pulumi/<project>/<stack>/<Kind>/<name>`). Longer than the API's 255 characters, the name is
 * cut and a hash of the whole keeps it unique.
 */
export function markOf(identity: ResourceIdentity): string {
  const parent = identity.parentUrn ? `@${hash(identity.parentUrn).slice(0, 8)}` : "";
  // The API refuses control characters; a name with one (rare) keeps a readable, still unique mark.
  // eslint-disable-next-line no-control-regex -- the API refuses exactly these
  const name = identity.name.replace(/[\u0000-\u001f\u007f]/g, "_");
  const instance = identity.instance ? `${identity.instance}/` : "";
  const full = `${stackMarkPrefix(identity.project, identity.stack)}${instance}${identity.kind}/${name}${parent}`;
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
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, x]) => [k, sort(x)]),
          )
        : v;
  return JSON.stringify(sort(value) ?? null);
}

/**
 * The `Idempotency-Key` of one logical create: an HMAC, keyed by the API key, of the mark and the
 * body as sent. The same program sends the same key after an interruption; another stack (or
 * another instance of a stack of the same name), another resource or other inputs send another. The API key as HMAC key keeps secrets in the body (header
 * values, webhook URLs) unguessable from the key, which the server stores.
 */
export function createKey(apiKey: string, mark: string, body: unknown): string {
  const mac = createHmac("sha256", apiKey)
    .update(`${mark}\n${canonicalJson(body)}`)
    .digest("hex");
  return `pulumi-uptime-${mac}`;
}
