/**
 * The provider of `StackIdentity`, the one internal resource a program of pulumi-uptime resources
 * registers (see resources/stack-identity.ts): it holds the stack instance every mark carries
 * (see identity.ts). It touches no service: create draws the instance, the state keeps it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { newStackInstance, STACK_INSTANCE } from "./identity";

/** The dynamic provider of the `StackIdentity` resource. */
export const stackIdentityProvider: pulumi.dynamic.ResourceProvider = {
  async create() {
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
