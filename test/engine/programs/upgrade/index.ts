import { dirname, join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

/** A module of the installed package by file path: the package exports none of its internals. */
const internal = (path: string) => require(join(dirname(require.resolve("pulumi-uptime/package.json")), "dist", path));
const { MONITOR_FIELDS, CHANNEL_FIELDS } = internal("api");
const { outputPlaceholders, secretProperties } = internal("provider/kinds/fields");
const { secretInputs, withSecretOutputs } = internal("provider/resources/options");

type Kind = "Monitor" | "Channel";
/** The runtime entry point kept for state written by earlier versions: exported untyped, for them only. */
type Runtime = Record<"configure" | "check" | "diff" | "create" | "read" | "update" | "remove", (...args: unknown[]) => Promise<never>>;

/**
 * The provider as versions before 0.2 wrote it into state: a closure Pulumi serializes, whose
 * methods load the runtime by package name and call its functions with the kind.
 */
function closureProvider(kind: Kind): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => (require("pulumi-uptime/provider/runtime") as Runtime).configure(req),
    check: (olds, news) => (require("pulumi-uptime/provider/runtime") as Runtime).check(kind, olds, news),
    diff: (id, olds, news) => (require("pulumi-uptime/provider/runtime") as Runtime).diff(kind, id, olds, news),
    create: (inputs) => (require("pulumi-uptime/provider/runtime") as Runtime).create(kind, inputs),
    read: (id, props) => (require("pulumi-uptime/provider/runtime") as Runtime).read(kind, id, props),
    update: (id, olds, news) => (require("pulumi-uptime/provider/runtime") as Runtime).update(kind, id, olds, news),
    delete: (id, props) => (require("pulumi-uptime/provider/runtime") as Runtime).remove(kind, id, props),
  };
}

/**
 * A resource of the earlier shape: same type token, inputs and outputs as this version's class,
 * and the identity earlier versions passed (no stack instance: its mark is
 * `pulumi/<project>/<stack>/<Kind>/<name>`).
 */
class Earlier extends pulumi.dynamic.Resource {
  declare readonly updatedAt: pulumi.Output<string>;
  constructor(kind: Kind, name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions = {}) {
    const fields = kind === "Monitor" ? MONITOR_FIELDS : CHANNEL_FIELDS;
    const secrets = secretProperties(fields);
    const props = { ...outputPlaceholders(fields), ...secretInputs({ ...args, name: args.name ?? name }, secrets), __identity: { project: pulumi.getProject(), stack: pulumi.getStack(), kind, name } };
    super(closureProvider(kind), name, props, withSecretOutputs(opts, secrets), "uptime", kind);
  }
}

const config = new pulumi.Config();
const earlier = config.getBoolean("earlier") ?? false;
const channelArgs = { type: "webhook" as const, config: { url: config.requireSecret("hookUrl") } };
const ops = earlier ? new Earlier("Channel", "ops", channelArgs) : new uptime.Channel("ops", channelArgs);
const monitorArgs = { type: "http" as const, url: "https://api.example.com/health", intervalSec: config.getNumber("interval") ?? 60, channelIds: [ops.id] };
const api = earlier ? new Earlier("Monitor", "api", monitorArgs) : new uptime.Monitor("api", monitorArgs);

export const monitorId = api.id;
export const channelId = ops.id;
