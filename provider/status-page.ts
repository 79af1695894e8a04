import * as pulumi from "@pulumi/pulumi";
import { type ConnectionArgs, secretInputs, withSecretOutputs } from "./resource-options";
import { serializedProvider } from "./serialized";

/** Inputs of a StatusPage. */
export interface StatusPageArgs {
  /** 3..64 characters of a-z, 0-9 and -; unique on the service. The public document is at /api/status/<slug>.json. */
  slug: pulumi.Input<string>;
  /** Title shown on the page, 1..120 characters. */
  title: pulumi.Input<string>;
  /** Optional text under the title. */
  description?: pulumi.Input<string>;
  /** Monitors shown on the page; a set. */
  monitorIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Id of an existing status page (`sp_…`) to take over instead of creating one. */
  adopt?: pulumi.Input<string>;
  /** Another service or account for this resource. */
  connection?: pulumi.Input<ConnectionArgs>;
}

/** A public status page listing monitors by name and health. */
export class StatusPage extends pulumi.dynamic.Resource {
  declare readonly slug: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | null>;
  declare readonly monitorIds: pulumi.Output<string[]>;
  /** URL of the public status document (no key needed). */
  declare readonly publicUrl: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  declare readonly endpoint: pulumi.Output<string>;

  constructor(name: string, args: StatusPageArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...secretInputs(args, ["connection"]),
      publicUrl: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      endpoint: undefined,
    };
    super(serializedProvider("StatusPage"), name, props, withSecretOutputs(opts, ["connection"]), "uptime", "StatusPage");
  }
}
