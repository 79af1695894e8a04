/**
 * Imported first by the plugin's entry point: on a Node.js older than undici 8 supports (the
 * launcher runs `node` from PATH), loading the provider would crash inside undici with nothing
 * about the version; this says which one it needs, on stderr, where the Pulumi engine shows it.
 */
import { nodeTooOld } from "../api/node-version";

const problem = nodeTooOld("pulumi-resource-uptime (set PULUMI_UPTIME_NODE to a newer node)");
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
