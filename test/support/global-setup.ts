import type { TestProject } from "vitest/node" with { "resolution-mode": "import" };
import { installPackedPackage } from "../../scripts/packed";

declare module "vitest" {
  export interface ProvidedContext {
    /** node_modules with the packed pulumi-uptime installed, for engine test programs. */
    packedModules: string;
  }
}

/**
 * Before any test: builds (or finds) the Pulumi CLI, and installs this package from its own
 * `npm pack` tarball for the engine tests' programs.
 */
export default async function setup(project: TestProject): Promise<void> {
  const { ensurePulumi } = await import("../../scripts/ensure-pulumi.mjs");
  const cli = ensurePulumi();
  process.stderr.write(`Pulumi CLI v${cli.version} from ${cli.source}: ${cli.binDir}\n`);
  project.provide("packedModules", installPackedPackage());
}
