/** Builds (or finds) the Pulumi CLI once, before any engine test starts. */
export default async function setup(): Promise<void> {
  const { ensurePulumi } = await import("../../scripts/ensure-pulumi.mjs");
  const cli = ensurePulumi();
  process.stderr.write(`Pulumi CLI v${cli.version} from ${cli.source}: ${cli.binDir}\n`);
}
