/**
 * The provider of `StackIdentity`, the one internal resource a program of pulumi-uptime resources
 * registers (see resources/stack-identity.ts): it holds the stack instance every mark carries
 * (see identity.ts). It touches no service: create draws the instance, the state keeps it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { newStackInstance, STACK_INSTANCE } from "./identity";

/** Whether the engine writes no checkpoint until the command ends (Pulumi reads "true" or "1"). */
export function checkpointsSkipped(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(true|1)$/i.test(env.PULUMI_SKIP_CHECKPOINTS ?? "");
}

/**
 * With checkpoints skipped, a run killed after this create loses the instance it drew: the next
 * run draws another, and recreates every object the killed run made (under the lost instance,
 * which `orphans` cannot know). So the instance is drawn only by a run that writes checkpoints.
 */
function refuseWithoutCheckpoints(
  urn = "urn:pulumi:<stack>::<project>::pulumi-nodejs:dynamic/uptime:StackIdentity::pulumi-uptime-stack",
): void {
  if (!checkpointsSkipped()) return;
  throw new Error(
    "this stack has no stack instance in its state yet, and PULUMI_SKIP_CHECKPOINTS is set: a run killed now would lose the instance, " +
      "and the next run would create again every object this one made. Create the instance once with checkpoints, then go on skipping them: " +
      `PULUMI_SKIP_CHECKPOINTS=false pulumi up --target '${urn}'`,
  );
}

/** The dynamic provider of the `StackIdentity` resource. */
export const stackIdentityProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    refuseWithoutCheckpoints(typeof inputs?.stackUrn === "string" ? inputs.stackUrn : undefined);
    const instance = newStackInstance();
    return { id: instance, outs: { instance } };
  },
  // Nothing to compare: the instance is drawn once and never changes while the resource lives.
  async diff() {
    return { changes: false };
  },
  // A refresh keeps what the state holds; the id is the instance, should the outputs be lost.
  async read(id, props) {
    const instance = typeof props?.instance === "string" && STACK_INSTANCE.test(props.instance) ? props.instance : id;
    return { id, props: { instance } };
  },
  async delete() {
    // Nothing lives outside the state.
  },
};
