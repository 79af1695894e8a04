import type * as pulumi from "@pulumi/pulumi";
import type { KindName } from "./kinds/registry";

type Runtime = typeof import("./runtime");

/**
 * The provider object Pulumi serializes into state. It holds no logic and no secrets: each method
 * loads the installed implementation by package name, so an upgrade of pulumi-uptime also fixes
 * resources created by an older version, and nothing is captured by value but the kind's name.
 */
export function serializedProvider(kind: KindName): pulumi.dynamic.ResourceProvider {
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
