import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector } from "undici";
import { TARGET_CONFIG_KEYS } from "../api";

/**
 * The outbound policy: every connection the server makes (probes, each redirect hop, webhook and
 * Slack deliveries) goes to a global unicast address only, by ipaddr.js's range classification.
 * With private targets allowed (tests, on-premises), everything but link-local (where cloud
 * metadata lives), unspecified, multicast and broadcast addresses is reachable.
 */

/** Refused even with private targets allowed. */
const NEVER = new Set(["linkLocal", "unspecified", "multicast", "broadcast"]);
/** IPv6 prefixes that embed an IPv4 address in their last 32 bits (NAT64, IPv4-compatible). */
const EMBEDS_V4_LOW = [ipaddr.parseCIDR("64:ff9b::/96"), ipaddr.parseCIDR("64:ff9b:1::/48"), ipaddr.parseCIDR("::/96")];
/** 6to4 embeds the IPv4 address in bits 16 to 48. */
const SIX_TO_FOUR = ipaddr.parseCIDR("2002::/16");
/** Blocks ipaddr.js calls unicast that no public host lives in: the rest of ::/8. */
const V6_UNASSIGNED = ipaddr.parseCIDR("::/8");
/** Names that are metadata services wherever they resolve: refused always. */
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"]);
/** Suffixes of names that only mean something on a private network. */
const LOCAL_SUFFIXES = [".localhost", ".internal", ".local", ".localdomain", ".home.arpa", ".lan", ".intranet", ".corp"];
const ALLOW_HINT = "; start the server with --allow-private-targets to reach it";

/** The IPv4 address embedded in a NAT64, IPv4-compatible or 6to4 IPv6 address, if any. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  if (EMBEDS_V4_LOW.some((cidr) => address.match(cidr))) {
    return new ipaddr.IPv4(bytes.slice(12, 16));
  }
  if (address.match(SIX_TO_FOUR)) return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/** Why `address` (an IP literal) may not be reached, or undefined when it may. */
export function refusal(address: string, allowPrivate: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = ipaddr.process(address);
  const range = ip.range();
  // `::` and `::1` sit inside the IPv4-compatible block but are themselves, not 0.0.0.x.
  const plain = range === "loopback" || range === "unspecified";
  const inner = ip.kind() === "ipv6" && !plain ? embeddedV4(ip as ipaddr.IPv6) : undefined;
  const never = NEVER.has(range) ? range : inner && NEVER.has(inner.range()) ? inner.range() : undefined;
  if (never) return `${address} is a ${never} address, which is never reached`;
  if (allowPrivate) return undefined;
  if (range !== "unicast") return `${address} is not a global unicast address (${range})${ALLOW_HINT}`;
  if (ip.kind() === "ipv6" && ((ip as ipaddr.IPv6).match(V6_UNASSIGNED) || inner)) {
    return `${address} is not a global unicast address (reserved)${ALLOW_HINT}`;
  }
  return undefined;
}

/** Why a host name (not an IP literal) may not be reached, or undefined when it may. */
function nameRefusal(name: string, allowPrivate: boolean): string | undefined {
  const host = name.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata host, which is never reached`;
  if (allowPrivate) return undefined;
  if (host === "localhost" || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return `${host} is a local name${ALLOW_HINT}`;
  }
  if (!host.includes(".")) return `${host} is a single-label (local) name${ALLOW_HINT}`;
  return undefined;
}

/** Why a host (name or IP literal, IPv6 with or without brackets) may not be reached. */
export function hostRefusal(hostname: string, allowPrivate: boolean): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, "");
  return isIP(host) ? refusal(host, allowPrivate) : nameRefusal(host, allowPrivate);
}

/**
 * Why a target URL may not be used, or undefined when it may: the check at create and PATCH time
 * (IP literals and local names). Names that resolve to refused addresses are caught at connect time.
 */
export function targetProblem(url: string, allowPrivate: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be a valid URL";
  }
  const why = hostRefusal(parsed.hostname, allowPrivate);
  return why ? `must not point at a private, loopback or metadata host: ${why}` : undefined;
}

/** An error with a stable code for refused destinations. */
export class TargetRefusedError extends Error {
  readonly code = "target_refused";
}

/** Throws TargetRefusedError when a URL's host is refused (names by name, IP literals by range). */
export function assertTargetAllowed(url: URL, allowPrivate: boolean): void {
  const why = hostRefusal(url.hostname, allowPrivate);
  if (why) throw new TargetRefusedError(`connection refused by the outbound policy: ${why}`);
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `dns.lookup`-shaped resolver; tests inject a stub so no query leaves the machine. */
export type Resolve = (
  hostname: string,
  options: { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A DNS lookup that drops refused addresses, so a name that resolves to a private or metadata
 * address (or is re-pointed there later) is refused at connect time, not just when first checked.
 */
export function safeLookup(allowPrivate: boolean, resolve: Resolve = dnsLookup as unknown as Resolve) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    const byName = nameRefusal(hostname, allowPrivate);
    if (byName) return callback(refused(byName), []);
    resolve(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const family = options.family === 4 || options.family === 6 ? options.family : undefined;
      const wanted = addresses.filter((a) => family === undefined || a.family === family);
      const allowed = wanted.filter((a) => !refusal(a.address, allowPrivate));
      if (allowed.length === 0) {
        const why = refusal(wanted[0]?.address ?? hostname, allowPrivate) ?? "no address";
        return callback(refused(`${hostname} resolves to ${why}`), []);
      }
      if (options.all) return callback(null, allowed);
      const first = allowed[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

function refused(why: string): NodeJS.ErrnoException {
  return Object.assign(new TargetRefusedError(`connection refused by the outbound policy: ${why}`), { errno: 0 });
}

/** Options of the outbound dispatcher: undici's, plus a resolver for tests. */
export interface OutboundOptions extends Agent.Options {
  resolve?: Resolve;
}

/**
 * An undici dispatcher whose every connection obeys the policy: names through `safeLookup`, IP
 * literals (which `net.connect` never looks up) checked before dialling. Redirect hops composed
 * on top of it open their connections here too, so no hop escapes the policy.
 */
export function outboundAgent(allowPrivate: boolean, options: OutboundOptions = {}): Agent {
  const { resolve, ...agentOptions } = options;
  const base = buildConnector({
    ...(agentOptions.connect as object),
    lookup: safeLookup(allowPrivate, resolve) as never,
  } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, "");
    const why = isIP(host) ? refusal(host, allowPrivate) : undefined;
    if (why) {
      callback(new TargetRefusedError(`connection refused by the outbound policy: ${why}`), null);
      return;
    }
    base(opts, callback);
  };
  return new Agent({ ...agentOptions, connect });
}

/** Create/PATCH-time check of a channel config's URLs (`config.url`, `config.webhook_url`, `config.api_url`). */
export function channelTargetDetails(
  config: Readonly<Record<string, unknown>>,
  allowPrivate: boolean,
): { field: string; message: string }[] {
  return TARGET_CONFIG_KEYS.flatMap((key) => {
    const value = config[key];
    const why = typeof value === "string" ? targetProblem(value, allowPrivate) : undefined;
    return why ? [{ field: `config.${key}`, message: why }] : [];
  });
}
