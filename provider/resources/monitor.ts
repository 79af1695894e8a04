import type * as pulumi from "@pulumi/pulumi";
import { MONITOR_FIELDS, stepsHoldPlainCredential, type TypeSpecificProperty } from "../../api";
import { outputNames, secretProperties } from "../kinds/fields";
import { declareStateOutputs } from "./state-outputs";
import { absentMonitorOutput } from "../kinds/monitor-state";
import { secretInputs, withSecretOutputs } from "./options";
import type { ArgsOf, MaybeUndefined, OutputsOf } from "./types";
import { identityInput } from "./identity-input";
import { DynamicResource } from "./dynamic-resource";
import { hasTypeToken, typeToken } from "./type-token";
import { DRY_RUN_INPUT, type DryRunInput } from "../runtime/dry-run-input";

/**
 * Inputs of a Monitor, one per row of the monitor's field table. Field rules are checked at
 * preview time, before any request.
 */
export type MonitorArgs = ArgsOf<typeof MONITOR_FIELDS> & {
  /**
   * A monitor whose check is expected to fail today (a service not deployed yet): with
   * `uptime:testChecks` on, its failing dry run does not fail the preview. Default false.
   */
  expectFailing?: boolean;
};

/**
 * The outputs of a Monitor: every field as the service stores it. A property of other monitor
 * types only (`keyword` of an http monitor) is `undefined`: the state leaves it out.
 */
export type MonitorOutputs = MaybeUndefined<OutputsOf<typeof MONITOR_FIELDS>, TypeSpecificProperty>;

const SECRETS = secretProperties(MONITOR_FIELDS);

// The outputs are declared by the interface merged into the class, derived from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Monitor extends MonitorOutputs {}

/** An uptime monitor: the service probes `url` every `intervalSec` seconds. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Monitor extends DynamicResource {
  /**
   * The type token of every Monitor, `pulumi-nodejs:dynamic/uptime:Monitor`: what the engine, the
   * state and policy packs see, and what `validateResourceOfType(Monitor, …)` of `@pulumi/policy` matches.
   */
  static readonly __pulumiType = typeToken("Monitor");

  /** Whether `obj` is a Monitor: its `__pulumiType` is Monitor's (also for an object from another copy of this package). */
  static override isInstance(obj: unknown): obj is Monitor {
    return hasTypeToken(obj, Monitor.__pulumiType);
  }

  constructor(name: string, args: MonitorArgs, opts?: pulumi.CustomResourceOptions) {
    const { expectFailing, ...fields } = args;
    const dryRun: DryRunInput = { resource: name, ...(expectFailing ? { expectFailing: true } : {}) };
    const props = {
      // Steps with a credential written as plain text are kept as a secret (api/secret-headers.ts).
      ...secretInputs(
        { ...fields, name: fields.name ?? name },
        stepsHoldPlainCredential(fields.steps) ? [...SECRETS, "steps"] : SECRETS,
      ),
      ...identityInput("Monitor", name, opts),
      [DRY_RUN_INPUT]: dryRun,
    };
    super("Monitor", name, props, withSecretOutputs(opts, SECRETS));
  }
}

// Each declared output the program did not give as an input: read from state on first use.
declareStateOutputs(Monitor, outputNames(MONITOR_FIELDS), absentMonitorOutput);
