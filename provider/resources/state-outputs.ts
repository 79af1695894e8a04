import type * as pulumi from "@pulumi/pulumi";
// Subpaths, not the SDK root: its index loads the Automation API, which programs do not need.
import { output, secret, unknown } from "@pulumi/pulumi/output";
import { invoke } from "@pulumi/pulumi/runtime/invoke";
import { isDryRun } from "@pulumi/pulumi/runtime/settings";

/**
 * The outputs a resource did not register, read from the engine when a program first uses them.
 *
 * The Pulumi SDK holds an `Output` and a dozen promises for each property a resource registers,
 * until the engine answers its registration. A program constructs all its resources before the
 * engine has created the first, so at 10,000 monitors these were most of the program's memory
 * (4 GiB, 39 declared outputs each; `bench/up.mts`). A resource of this package registers only the
 * inputs the program gave it. Every other output its type declares (an input left to its
 * default, `status`, `createdAt`, `endpoint`) is still an `Output` on the object, made on first
 * use from the resource's state as this deployment leaves it: the engine's `getResource`, which
 * answers from the state the registration just wrote (the same state the SDK would have resolved
 * a registered output from). The rules are the SDK's: absent at preview, the value is unknown;
 * absent after an update, `undefined`; each output depends on its resource, and is secret where
 * the resource's `additionalSecretOutputs` (this package's secret fields among them) names it.
 * One read serves every such output of a resource. An output the state left out (a monitor's of
 * another type) reads as `absent` says, after the deployment (at preview it is unknown).
 */
export function declareStateOutputs(
  resourceClass: { prototype: object },
  names: readonly string[],
  absent: Absent = () => undefined,
): void {
  for (const name of names) {
    Object.defineProperty(resourceClass.prototype, name, {
      configurable: true,
      enumerable: false,
      get(this: StateHolder) {
        return stateOutput(this, name, absent);
      },
      // The SDK assigns each registered output onto the resource: it becomes the object's own.
      set(this: object, value: unknown) {
        Object.defineProperty(this, name, { value, writable: true, configurable: true, enumerable: true });
      },
    });
  }
}

/** Records the names of the resource's secret outputs (its `additionalSecretOutputs`). */
export function recordSecretOutputs(resource: object, names: readonly string[] | undefined): void {
  // The array the resource's options already hold (a few names): no copy for each resource.
  Object.defineProperty(resource, SECRETS, { value: names ?? [], enumerable: false });
}

/** What a program reads for the output `name` that `state` (the resource's outputs) does not hold. */
export type Absent = (state: Record<string, unknown>, name: string) => unknown;

const STATE = Symbol("pulumi-uptime.state");
const MADE = Symbol("pulumi-uptime.state-outputs");
const SECRETS = Symbol("pulumi-uptime.secret-outputs");

interface StateHolder {
  readonly urn: pulumi.Output<string>;
  [STATE]?: pulumi.Output<Record<string, unknown>>;
  [MADE]?: Map<string, pulumi.Output<unknown>>;
  [SECRETS]?: readonly string[];
}

function stateOutput(resource: StateHolder, name: string, absent: Absent): pulumi.Output<unknown> {
  const made = (resource[MADE] ??= new Map());
  let out = made.get(name);
  if (!out) {
    const state = (resource[STATE] ??= resource.urn.apply(readState));
    out = state.apply((values) =>
      output(values[name] !== undefined ? values[name] : isDryRun() ? unknown : absent(values, name)),
    );
    if (resource[SECRETS]?.includes(name)) out = secret(out);
    made.set(name, out);
  }
  return out;
}

/** The resource's outputs as the engine holds them in this deployment. */
async function readState(urn: string): Promise<Record<string, unknown>> {
  const found = (await invoke("pulumi:pulumi:getResource", { urn })) as { state?: Record<string, unknown> };
  return found.state ?? {};
}
