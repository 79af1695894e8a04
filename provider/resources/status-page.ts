import type * as pulumi from "@pulumi/pulumi";
import { STATUS_PAGE_FIELDS } from "../../api";
import { outputNames, secretProperties } from "../kinds/fields";
import { declareStateOutputs } from "./state-outputs";
import { secretInputs, withSecretOutputs } from "./options";
import type { ArgsOf, OutputsOf } from "./types";
import { identityInput } from "./identity-input";
import { DynamicResource } from "./dynamic-resource";
import { hasTypeToken, typeToken } from "./type-token";

/** Inputs of a StatusPage, one per row of the status page's field table. */
export type StatusPageArgs = ArgsOf<typeof STATUS_PAGE_FIELDS>;

/** The outputs of a StatusPage. */
export type StatusPageOutputs = OutputsOf<typeof STATUS_PAGE_FIELDS>;

const SECRETS = secretProperties(STATUS_PAGE_FIELDS);

// The outputs are declared by the interface merged into the class, derived from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface StatusPage extends StatusPageOutputs {}

/** A public status page listing monitors by name and health. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class StatusPage extends DynamicResource {
  /**
   * The type token of every StatusPage, `pulumi-nodejs:dynamic/uptime:StatusPage`: what the engine, the
   * state and policy packs see, and what `validateResourceOfType(StatusPage, …)` of `@pulumi/policy` matches.
   */
  static readonly __pulumiType = typeToken("StatusPage");

  /** Whether `obj` is a StatusPage: its `__pulumiType` is StatusPage's (also for an object from another copy of this package). */
  static override isInstance(obj: unknown): obj is StatusPage {
    return hasTypeToken(obj, StatusPage.__pulumiType);
  }

  constructor(name: string, args: StatusPageArgs, opts?: pulumi.CustomResourceOptions) {
    const props = { ...secretInputs(args, SECRETS), ...identityInput("StatusPage", name, opts) };
    super("StatusPage", name, props, withSecretOutputs(opts, SECRETS));
  }
}

// Each declared output the program did not give as an input: read from state on first use.
declareStateOutputs(StatusPage, outputNames(STATUS_PAGE_FIELDS));
