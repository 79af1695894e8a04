import type { KindName } from "../kinds/registry";

/** The providers a resource's `__provider` names: a kind's, or the stack identity's. */
export type ProviderName = KindName | "StackIdentity";

/**
 * The type token of a resource kind as the engine, the state and policy packs see it:
 * `pulumi-nodejs:dynamic/uptime:<Kind>` (the Node dynamic-provider package, module `dynamic/uptime`).
 */
export function typeToken(kind: ProviderName): `pulumi-nodejs:dynamic/uptime:${ProviderName}` {
  return `pulumi-nodejs:dynamic/uptime:${kind}`;
}

/**
 * Whether `obj` carries the type token `token` in `__pulumiType`: a resource of that kind (also
 * one made by another copy of this package), or the `{ __pulumiType }` object a policy pack's
 * `args.isType(Class)` builds from the type the engine reports.
 */
export function hasTypeToken(obj: unknown, token: string): boolean {
  return typeof obj === "object" && obj !== null && (obj as { __pulumiType?: unknown }).__pulumiType === token;
}
