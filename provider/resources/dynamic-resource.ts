import type * as pulumi from "@pulumi/pulumi";
// A subpath, not the SDK root: its index loads the Automation API, which programs do not need.
import { CustomResource } from "@pulumi/pulumi/resource";
import { TIMEOUTS_INPUT } from "../client/deadline";
import { REPLACE_ON_CHANGES_INPUT } from "../runtime/replace-on-changes";
import { cheapPromiseStacks, withStack } from "./promise-stacks";
import { recordSecretOutputs } from "./state-outputs";
import { type ProviderName, typeToken } from "./type-token";

export type { ProviderName };

/**
 * The provider as Pulumi keeps it in every resource's `__provider`: a module whose `handler()`
 * the dynamic-provider host calls (through require-from-string) to get the provider object. It
 * holds no logic and no secrets, only the kind's name: the implementation is loaded by package
 * name, so an upgrade of pulumi-uptime also runs for resources an older version wrote. One line
 * instead of a serialized closure keeps each resource's state small; the engine rewrites the
 * whole state file after every step, so its size is paid once per resource per step.
 */
export function providerSource(kind: ProviderName): string {
  return `exports.handler = () => require("pulumi-uptime/provider/runtime").providerOf(${JSON.stringify(kind)});\n`;
}

/**
 * A resource served by Pulumi's Node dynamic-provider host (`pulumi-nodejs:dynamic/uptime:<Kind>`),
 * the same protocol as `pulumi.dynamic.Resource`, with the provider given as `providerSource`
 * instead of a closure serialized for each program run. `replaceOnChanges` travels as an internal
 * input (runtime/replace-on-changes.ts): the engine cannot apply it to a dynamic resource.
 */
export abstract class DynamicResource extends CustomResource {
  protected constructor(
    kind: ProviderName,
    name: string,
    props: Record<string, unknown>,
    opts: pulumi.CustomResourceOptions,
  ) {
    const restoreStacks = cheapPromiseStacks();
    // The dynamic-provider host does not pass the engine's timeouts on: the provider reads them here.
    const timeouts = opts.customTimeouts ? { [TIMEOUTS_INPUT]: opts.customTimeouts } : {};
    // A replacement deletes first (also for `pulumi up --replace`, where the engine asks no provider):
    // the new object carries the same mark and Idempotency-Key, and must not take over the old one.
    const options = { ...opts, deleteBeforeReplace: opts.deleteBeforeReplace ?? true };
    try {
      const replaceOnChanges = opts.replaceOnChanges?.length
        ? { [REPLACE_ON_CHANGES_INPUT]: opts.replaceOnChanges }
        : {};
      super(
        typeToken(kind),
        name,
        { ...props, ...timeouts, ...replaceOnChanges, __provider: providerSource(kind) },
        options,
      );
    } catch (err) {
      restoreStacks();
      throw withStack(err, new.target);
    } finally {
      restoreStacks();
    }
    recordSecretOutputs(this, options.additionalSecretOutputs);
  }
}
