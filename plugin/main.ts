/**
 * Entry point of the bundled plugin (`pulumi-resource-uptime`): serves the provider to the Pulumi
 * engine. `--schema` prints the package schema instead (the SDK build reads it from here, so the
 * SDKs describe exactly what this bundle serves).
 */
import { main } from "@pulumi/pulumi/provider";
import { version } from "../package.json";
import { PLUGIN_KINDS } from "./kinds";
import { uptimeProvider } from "./provider";
import { patchProviderServer } from "./sdk-gaps";

const provider = uptimeProvider(PLUGIN_KINDS, version);

if (process.argv.includes("--schema")) {
  process.stdout.write(`${provider.schema}\n`);
} else {
  patchProviderServer((config) => void provider.configure(config));
  void main(provider, process.argv.slice(2));
}
