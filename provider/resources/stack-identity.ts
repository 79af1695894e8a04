import type * as pulumi from "@pulumi/pulumi";
// From its module, not the package root: the root loads the Automation API too.
import { getProject, getStack } from "@pulumi/pulumi/metadata";
import * as runtimeState from "@pulumi/pulumi/runtime/state";
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

/**
 * One identity per run of a program, never per process: the SDK's run store is the object each
 * run of a program has to itself (an Automation API service runs `up`, `preview` and `destroy` of
 * several stacks in one process, each in a store of its own; a CLI run has the one global store).
 * The map lives on `globalThis`, not in this module, so that a program with two copies of this
 * package (two versions in node_modules) still registers the resource once per run; the SDK
 * shares its store between its copies the same way.
 */
const SLOT = Symbol.for("pulumi-uptime.stack-identities");
// The SDK marks `getStore` internal (absent from its typings), yet it is how its own runtime finds
// the current run; nothing public names a run. Drop the cast if the SDK makes it public.
const runStore = (runtimeState as unknown as { getStore(): object }).getStore;
type Slot = { [SLOT]?: WeakMap<object, pulumi.Output<string>> };

/** The stack instance of the running program; its first call in a run registers the `StackIdentity` resource. */
export function stackInstance(): pulumi.Output<string> {
  const slot = globalThis as Slot;
  const identities = (slot[SLOT] ??= new WeakMap());
  const run = runStore();
  let instance = identities.get(run);
  if (!instance) {
    instance = new StackIdentity().instance;
    identities.set(run, instance);
  }
  return instance;
}
