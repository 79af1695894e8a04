import type * as pulumi from "@pulumi/pulumi";
// A subpath, not the SDK root: its index loads the Automation API, which programs do not need.
import { getProject, getStack } from "@pulumi/pulumi/metadata";
import { IDENTITY_INPUT, type MarkedKind, type ResourceIdentity } from "../runtime/identity";

/**
 * The internal input a resource class adds to its inputs: the stack and resource identity its
 * objects are marked with. A dynamic provider's `create` receives no URN, so the program, which
 * knows the project, stack, name and parent, passes it along. It never shows in a diff.
 */
export function identityInput(
  kind: MarkedKind,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
): Record<typeof IDENTITY_INPUT, pulumi.Input<ResourceIdentity>> {
  const identity: ResourceIdentity = { project: getProject(), stack: getStack(), kind, name };
  const parent = opts?.parent;
  return {
    [IDENTITY_INPUT]: parent ? parent.urn.apply((parentUrn) => ({ ...identity, parentUrn })) : identity,
  };
}
