import type * as pulumi from "@pulumi/pulumi";
import type { FieldTable } from "../../api";
import { outputNames, secretProperties } from "../kinds/fields";
import type { KindName } from "../kinds/registry";
import { DynamicResource } from "./dynamic-resource";
import { identityInput } from "./identity-input";
import { secretInputs, withSecretOutputs } from "./options";
import { declareStateOutputs } from "./state-outputs";
import { hasTypeToken, typeToken } from "./type-token";

/** How a kind's resource class treats its inputs beyond its field table. */
export interface TableResourceOptions<Args> {
  /** The `name` input defaults to the resource's name (monitors, channels, windows). */
  defaultName?: boolean;
  /** What an output the state does not hold reads as (see `declareStateOutputs`). */
  absent?: Parameters<typeof declareStateOutputs>[2];
  /** What the class makes of its args: the table's inputs, more of them kept secret, inputs of its own. */
  prepare?: (name: string, args: Args) => PreparedInputs;
}

/** The inputs of one resource as `prepare` gives them. */
export interface PreparedInputs {
  /** The inputs of the table's rows. */
  inputs: object;
  /** Inputs kept secret in state besides the table's secret rows (outputs are the table's only). */
  secrets?: readonly string[];
  /** Inputs added after the table's and the identity (the dry run's). */
  props?: Record<string, unknown>;
}

/** The base class `tableResource` makes: a kind's class extends it. */
export interface TableResourceClass<Args> {
  new (name: string, args: Args, opts?: pulumi.CustomResourceOptions): DynamicResource;
  /**
   * The type token of every resource of the kind, `pulumi-nodejs:dynamic/uptime:<Kind>`: what the engine,
   * the state and policy packs see, and what `validateResourceOfType(<Kind>, …)` of `@pulumi/policy` matches.
   */
  readonly __pulumiType: ReturnType<typeof typeToken>;
  /** Whether `obj` is one of the kind: its `__pulumiType` is the kind's (also for an object from another copy of this package). */
  isInstance<T extends abstract new (...args: never[]) => DynamicResource>(
    this: T,
    obj: unknown,
  ): obj is InstanceType<T>;
}

/**
 * The base class of a kind whose inputs and outputs are the rows of its field table (Monitor,
 * Channel, StatusPage, MaintenanceWindow): its type token, `isInstance`, the table's secret
 * inputs and outputs, the stack's mark on each object, and every declared output the program did
 * not give as an input read from state on first use. A kind's class extends it and merges an
 * interface of its outputs into itself.
 */
export function tableResource<Args extends object>(
  kind: KindName,
  fields: FieldTable,
  { defaultName = false, absent, prepare }: TableResourceOptions<Args> = {},
): TableResourceClass<Args> {
  const secrets = secretProperties(fields);
  class TableResource extends DynamicResource {
    static readonly __pulumiType = typeToken(kind);

    static override isInstance(obj: unknown): obj is DynamicResource {
      return hasTypeToken(obj, typeToken(kind));
    }

    constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {
      const { inputs, secrets: more, props } = prepare ? prepare(name, args) : { inputs: args };
      const named = defaultName ? { ...inputs, name: (inputs as { name?: unknown }).name ?? name } : inputs;
      super(
        kind,
        name,
        {
          ...secretInputs(named, more ? [...secrets, ...more] : secrets),
          ...identityInput(kind, name, opts),
          ...props,
        },
        withSecretOutputs(opts, secrets),
      );
    }
  }
  declareStateOutputs(TableResource, outputNames(fields), absent);
  // `isInstance` is typed for the class it is called on (`Monitor.isInstance(x)`: x is a Monitor).
  return TableResource as unknown as TableResourceClass<Args>;
}
