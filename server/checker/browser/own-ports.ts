import { networkInterfaces } from "node:os";
import ipaddr from "ipaddr.js";
import { TargetRefusedError } from "../../outbound";
import type { ProbeContext } from "../probe";

/**
 * The uptime server's own API is out of a browser script's reach, even where the outbound policy
 * lets scripts reach this machine (`--allow-private-targets`): a script sends any request and reads
 * any answer, so a port of the server (the server's own, or the one an agent reports to) is refused
 * on every address of this machine. Other services of this machine stay as the policy says.
 */

/** Throws TargetRefusedError when `address:port` is one of the context's own ports on this machine. */
export function assertNotOwnPort(address: string, port: number, ctx: ProbeContext): void {
  if (!ctx.ownPorts?.().includes(port) || !onThisMachine(address)) return;
  throw new TargetRefusedError(
    `connection refused: ${address}:${port} is the uptime server's own API, which browser scripts never reach`,
  );
}

/** Whether `address` (an IP literal) is this machine's: loopback, unspecified, or an interface's. */
function onThisMachine(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (ip.range() === "loopback" || ip.range() === "unspecified") return true;
  const mine = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return mine.some(
    (i) =>
      ipaddr.isValid(i.address.split("%")[0] as string) &&
      ipaddr.process(i.address.split("%")[0] as string).toString() === ip.toString(),
  );
}
