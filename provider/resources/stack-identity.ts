import type * as pulumi from "@pulumi/pulumi";
// From its module, not the package root: the root loads the Automation API too.
import { getProject, getStack } from "@pulumi/pulumi/metadata";
import { DynamicResource } from "./dynamic-resource";
import { typeToken } from "./type-token";

/** The resource's name: one per stack. */
export const STACK_IDENTITY_NAME = "pulumi-uptime-stack";

/**
 * The stack instance, as the state of the stack keeps it: a random id every object's mark and
 * create key carry, so that two stacks of the same project and stack names in different backends
 * (on one API key) never take over each other's objects. Every resource of this package depends
 * on it, so the engine writes it to the state before the first object is created, and a killed
 * run leaves it there for the next run (which then finds what the killed one made).
 */
class StackIdentity extends DynamicResource {
  /** The stack instance (16 hex digits). */
  declare readonly instance: pulumi.Output<string>;

  constructor() {
    // The URN goes to the provider only for its message when checkpoints are skipped (see
    // runtime/stack-identity.ts): a dynamic provider's create is not told its resource's URN.
    const urn = `urn:pulumi:${getStack()}::${getProject()}::${typeToken("StackIdentity")}::${STACK_IDENTITY_NAME}`;
    super("StackIdentity", STACK_IDENTITY_NAME, { instance: undefined, stackUrn: urn }, {});
  }
}

// Shared through the process, not the module: a program with two copies of this package (two
// versions in node_modules) still registers the resource once.
const SLOT = Symbol.for("pulumi-uptime.stack-identity");
type Slot = { [SLOT]?: pulumi.Output<string> };

/** The stack instance; the first call registers the `StackIdentity` resource. */
export function stackInstance(): pulumi.Output<string> {
  const slot = globalThis as Slot;
  slot[SLOT] ??= new StackIdentity().instance;
  return slot[SLOT];
}
