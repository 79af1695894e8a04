/**
 * Entry point of the bundled plugin (`pulumi-resource-uptime`): serves the provider to the Pulumi
 * engine. `--schema` prints the package schema instead (the SDK build reads it from here, so the
 * SDKs describe exactly what this bundle serves).
 */
import "./node-version";
import { main } from "@pulumi/pulumi/provider";
import { PLUGIN_KINDS } from "./kinds";
import { checkProviderInputs } from "./identity";
import { uptimeProvider } from "./provider";
import { patchProviderServer } from "./sdk-gaps";

// The bundler writes the package's version here (plugin/build/bundle.ts): importing package.json
// would make the TypeScript build copy it into dist/, where it passes for the package root.
declare const PLUGIN_VERSION: string;
const provider = uptimeProvider(PLUGIN_KINDS, PLUGIN_VERSION);

if (process.argv.includes("--schema")) {
  process.stdout.write(`${provider.schema}\n`);
} else {
  patchProviderServer((config) => void provider.configure(config), provider.detailedDiff, checkProviderInputs);
  void main(provider, process.argv.slice(2));
}
