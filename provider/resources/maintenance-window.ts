import type * as pulumi from "@pulumi/pulumi";
import { MAINTENANCE_WINDOW_FIELDS } from "../../api";
import { outputNames, secretProperties } from "../kinds/fields";
import { declareStateOutputs } from "./state-outputs";
import { secretInputs, withSecretOutputs } from "./options";
import type { ArgsOf, OutputsOf } from "./types";
import { identityInput } from "./identity-input";
import { DynamicResource } from "./dynamic-resource";
import { hasTypeToken, typeToken } from "./type-token";

/** Inputs of a MaintenanceWindow, one per row of its field table. */
export type MaintenanceWindowArgs = ArgsOf<typeof MAINTENANCE_WINDOW_FIELDS>;

/** The outputs of a MaintenanceWindow. */
export type MaintenanceWindowOutputs = OutputsOf<typeof MAINTENANCE_WINDOW_FIELDS>;

const SECRETS = secretProperties(MAINTENANCE_WINDOW_FIELDS);

// The outputs are declared by the interface merged into the class, derived from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface MaintenanceWindow extends MaintenanceWindowOutputs {}

/**
 * A maintenance window (an extension of the API): while it is in effect, failed checks of its
 * monitors open no incident, notify nobody and count as maintenance, not downtime.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class MaintenanceWindow extends DynamicResource {
  /**
   * The type token of every MaintenanceWindow, `pulumi-nodejs:dynamic/uptime:MaintenanceWindow`: what the engine, the
   * state and policy packs see, and what `validateResourceOfType(MaintenanceWindow, …)` of `@pulumi/policy` matches.
   */
  static readonly __pulumiType = typeToken("MaintenanceWindow");

  /** Whether `obj` is a MaintenanceWindow: its `__pulumiType` is MaintenanceWindow's (also for an object from another copy of this package). */
  static override isInstance(obj: unknown): obj is MaintenanceWindow {
    return hasTypeToken(obj, MaintenanceWindow.__pulumiType);
  }

  constructor(name: string, args: MaintenanceWindowArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...secretInputs({ ...args, name: args.name ?? name }, SECRETS),
      ...identityInput("MaintenanceWindow", name, opts),
    };
    super("MaintenanceWindow", name, props, withSecretOutputs(opts, SECRETS));
  }
}

// Each declared output the program did not give as an input: read from state on first use.
declareStateOutputs(MaintenanceWindow, outputNames(MAINTENANCE_WINDOW_FIELDS));
