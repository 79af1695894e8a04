import * as pulumi from "@pulumi/pulumi";
import type { HTTP_METHODS, MonitorType } from "../api";
import type { ConnectionArgs } from "./resource-options";
import { secretInputs, withSecretOutputs } from "./resource-options";
import { serializedProvider } from "./serialized";

/** Inputs of a Monitor. Field rules are checked at preview time, before any request. */
export interface MonitorArgs {
  /** Display name, 1..120 characters. Defaults to the resource's name. */
  name?: pulumi.Input<string>;
  /** `http`, `keyword` or `tcp`. Changing it replaces the monitor. */
  type: pulumi.Input<MonitorType>;
  /** `http(s)://…` for http and keyword monitors, `tcp://host:port` for tcp. */
  url: pulumi.Input<string>;
  /** Seconds between checks, 30..86400. */
  intervalSec: pulumi.Input<number>;
  /** Seconds a check may take, 1..60 and less than `intervalSec`. Default 10. */
  timeoutSec?: pulumi.Input<number>;
  /** HTTP method of the probe. Default `GET`. */
  method?: pulumi.Input<(typeof HTTP_METHODS)[number]>;
  /** Request headers (at most 50). Names are compared case-insensitively. Stored as a secret. */
  headers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Request body, only with POST, PUT, PATCH or DELETE. Stored as a secret. */
  body?: pulumi.Input<string>;
  /** Status codes or classes that count as up, e.g. `[200, "3xx"]`; a set. Default `["2xx", "3xx"]`. */
  expectedStatusCodes?: pulumi.Input<pulumi.Input<number | string>[]>;
  /** Text the response must contain: required for `keyword` monitors, forbidden for others. */
  keyword?: pulumi.Input<string>;
  /** Whether `keyword` matches case-sensitively. Default false. */
  keywordCaseSensitive?: pulumi.Input<boolean>;
  /** Whether probes follow redirects. Default true. */
  followRedirects?: pulumi.Input<boolean>;
  /** Channels notified when the monitor goes down or comes back; a set. */
  channelIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Free labels, compared case-insensitively; a set. */
  tags?: pulumi.Input<pulumi.Input<string>[]>;
  /** Pause checks (true) or keep them running (false, the default). */
  paused?: pulumi.Input<boolean>;
  /**
   * Id of an existing monitor (`mon_…`) to take over instead of creating one: on create it is
   * updated to these inputs. The way to bring monitors made elsewhere under Pulumi.
   */
  adopt?: pulumi.Input<string>;
  /** Another service or account for this resource; defaults to `uptime:baseUrl`/`uptime:apiKey`. */
  connection?: pulumi.Input<ConnectionArgs>;
}

/** An uptime monitor: the service probes `url` every `intervalSec` seconds. */
export class Monitor extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly type: pulumi.Output<MonitorType>;
  declare readonly url: pulumi.Output<string>;
  declare readonly intervalSec: pulumi.Output<number>;
  declare readonly timeoutSec: pulumi.Output<number>;
  declare readonly method: pulumi.Output<string>;
  declare readonly headers: pulumi.Output<Record<string, string>>;
  declare readonly body: pulumi.Output<string | null>;
  declare readonly expectedStatusCodes: pulumi.Output<(number | string)[]>;
  declare readonly keyword: pulumi.Output<string | null>;
  declare readonly keywordCaseSensitive: pulumi.Output<boolean>;
  declare readonly followRedirects: pulumi.Output<boolean>;
  declare readonly channelIds: pulumi.Output<string[]>;
  declare readonly tags: pulumi.Output<string[]>;
  declare readonly paused: pulumi.Output<boolean>;
  /** `active` or `paused`, as the service reports it. */
  declare readonly status: pulumi.Output<"active" | "paused">;
  /** `pending` until the first check, then `up` or `down` (as of the last refresh). */
  declare readonly health: pulumi.Output<"pending" | "up" | "down">;
  declare readonly lastCheckedAt: pulumi.Output<string | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  /** Base URL of the service that holds the monitor. */
  declare readonly endpoint: pulumi.Output<string>;

  constructor(name: string, args: MonitorArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...secretInputs({ ...args, name: args.name ?? name }, ["headers", "body", "connection"]),
      status: undefined,
      health: undefined,
      lastCheckedAt: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      endpoint: undefined,
    };
    super(serializedProvider("Monitor"), name, props, withSecretOutputs(opts, ["headers", "body", "connection"]), "uptime", "Monitor");
  }
}
