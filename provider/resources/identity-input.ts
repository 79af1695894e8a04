import type * as pulumi from "@pulumi/pulumi";
// Subpaths, not the SDK root: its index loads the Automation API, which programs do not need.
import { getProject, getStack } from "@pulumi/pulumi/metadata";
import { all } from "@pulumi/pulumi/output";
import { IDENTITY_INPUT, type MarkedKind, type ResourceIdentity } from "../runtime/identity";
import { stackInstance } from "./stack-identity";

/**
 * The internal input a resource class adds to its inputs: the stack and resource identity its
 * objects are marked with. A dynamic provider's `create` receives no URN, so the program, which
 * knows the project, stack, name and parent, passes it along, with the stack instance of the
 * stack's `StackIdentity` resource (which makes the resource depend on it). It never shows in a
 * diff.
 */
export function identityInput(
  kind: MarkedKind,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
): Record<typeof IDENTITY_INPUT, pulumi.Input<ResourceIdentity>> {
  const identity: ResourceIdentity = { project: getProject(), stack: getStack(), kind, name };
  // Only the parent's URN value, not the Output: depending on a component parent means depending on
  // all its children, this resource among them, and its registration would wait for itself.
  // A parent that is no resource has no URN: the SDK's constructor refuses it, naming the rule.
  const parentUrn = opts?.parent?.urn ? valueOf(opts.parent.urn) : undefined;
  // Without a parent, one apply: every resource holds its Output's promises until it registers
  // (all of them at once in a large program), and `all` over two values holds about four times as many.
  const value = parentUrn
    ? all([stackInstance(), parentUrn]).apply(([instance, urn]) => ({
        ...identity,
        instance,
        ...(urn ? { parentUrn: urn } : {}),
      }))
    : stackInstance().apply((instance) => ({ ...identity, instance }));
  return { [IDENTITY_INPUT]: value };
}

/** The value of an Output, without the resources it depends on (a URN is known even at preview). */
function valueOf<T>(value: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => value.apply(resolve));
}
