/**
 * The native plugin's side of stack identity (see provider/runtime/identity.ts). A plugin's create
 * sees the resource's URN, which names the project, stack, type (with its parents' types) and
 * name. The stack instance lives in the provider's own inputs: the engine writes a provider to
 * the state before any resource that uses it, so the instance is there before the first object
 * is created, and a killed run leaves it for the next one.
 */
import {
  IDENTITY_INPUT,
  type MarkedKind,
  newStackInstance,
  type ResourceIdentity,
  STACK_INSTANCE,
} from "../provider/runtime/identity";
import type { Props } from "../provider/kinds/values";

/** The provider input that holds the stack instance. */
export const STACK_INSTANCE_INPUT = "stackInstance";

const valid = (v: unknown): string | undefined => (typeof v === "string" && STACK_INSTANCE.test(v) ? v : undefined);

/**
 * The provider's inputs as the engine stores them (CheckConfig): the configured ones, with the
 * stack instance the state already holds, or a new one for a new provider. A refresh passes the
 * stored inputs as both olds and news.
 */
export function checkProviderInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Record<string, unknown> {
  const instance = valid(olds[STACK_INSTANCE_INPUT]) ?? valid(news[STACK_INSTANCE_INPUT]) ?? newStackInstance();
  return { ...news, [STACK_INSTANCE_INPUT]: instance };
}

/**
 * The identity of the resource `urn` (`urn:pulumi:<stack>::<project>::<parent types$>type::<name>`).
 * Under a parent, the parents' types stand for the parent: with the name, they make the URN,
 * which is unique in the stack.
 */
export function urnIdentity(
  urn: string,
  kind: MarkedKind,
  name: string,
  instance: string | undefined,
): ResourceIdentity {
  const [head = "", project = "", type = ""] = urn.split("::");
  const stack = head.slice("urn:pulumi:".length);
  const parents = type.includes("$") ? type.slice(0, type.lastIndexOf("$")) : undefined;
  return { project, stack, kind, name, ...(instance ? { instance } : {}), ...(parents ? { parentUrn: parents } : {}) };
}

/** The inputs of a create, with the identity the runtime marks the object with. */
export function withIdentity(inputs: Props, identity: ResourceIdentity): Props {
  return { ...inputs, [IDENTITY_INPUT]: identity };
}
