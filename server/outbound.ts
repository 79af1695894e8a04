import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent } from "undici";

/** Ranges no probe or webhook may reach: link-local (cloud metadata lives there) and the like. */
const ALWAYS_BLOCKED = new Set(["linkLocal", "unspecified", "broadcast", "multicast", "reserved"]);
/** Ranges reachable only when the server allows private targets (tests, on-premises). */
const PRIVATE = new Set(["private", "loopback", "carrierGradeNat", "uniqueLocal"]);
const BLOCKED_NAMES = new Set(["metadata.google.internal", "metadata"]);

/** Why an address may not be reached, or undefined when it may. */
export function refusal(address: string, allowPrivate: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  if (ALWAYS_BLOCKED.has(range)) return `${address} is a ${range} address, which is never reached`;
  if (PRIVATE.has(range) && !allowPrivate) {
    return `${address} is a ${range} address; start the server with private targets allowed to reach it`;
  }
  return undefined;
}

/** An error with a stable code for refused destinations. */
export class TargetRefusedError extends Error {
  readonly code = "target_refused";
}

/** Checks a URL's host before any connection: names on the block list and IP literals. */
export function assertTargetAllowed(url: URL, allowPrivate: boolean): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (BLOCKED_NAMES.has(host.toLowerCase())) throw new TargetRefusedError(`${host} is a cloud metadata host`);
  if (isIP(host)) {
    const why = refusal(host, allowPrivate);
    if (why) throw new TargetRefusedError(why);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup that drops refused addresses, so a name that resolves to a private or metadata
 * address (or is re-pointed there later) is refused at connect time, not just when first checked.
 */
export function safeLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const allowed = addresses.filter((a) => !refusal(a.address, allowPrivate));
      if (allowed.length === 0) {
        const why = refusal(addresses[0]?.address ?? hostname, allowPrivate) ?? "no address";
        return callback(Object.assign(new TargetRefusedError(`${hostname}: ${why}`), { errno: 0 }), []);
      }
      if (options.all) return callback(null, allowed);
      const first = allowed[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** An undici dispatcher whose connections obey the outbound policy. */
export function outboundAgent(allowPrivate: boolean, options: Agent.Options = {}): Agent {
  return new Agent({
    ...options,
    connect: { ...options.connect, lookup: safeLookup(allowPrivate) as never },
  });
}
