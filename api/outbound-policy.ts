import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The outbound policy's rules for a target, shared by the server (at create and PATCH, and at
 * connect time), its agents, and the provider's check at `pulumi preview`, so that all of them say
 * the same thing. A place that probes (the built-in checker, an agent) reaches global unicast
 * addresses only, by ipaddr.js's range classification; with private targets allowed (tests,
 * on-premises agents), everything but link-local (where cloud metadata lives), unspecified,
 * multicast and broadcast addresses.
 */

/** The hint of a refusal the server's own `--allow-private-targets` lifts. */
export const SERVER_ALLOW_HINT = "; start the server with --allow-private-targets to reach it";

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
const LOCAL_SUFFIXES = [
  ".localhost",
  ".internal",
  ".local",
  ".localdomain",
  ".home.arpa",
  ".lan",
  ".intranet",
  ".corp",
];

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
export function refusal(address: string, allowPrivate: boolean, hint = SERVER_ALLOW_HINT): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = ipaddr.process(address);
  const range = ip.range();
  // `::` and `::1` sit inside the IPv4-compatible block but are themselves, not 0.0.0.x.
  const plain = range === "loopback" || range === "unspecified";
  const inner = ip.kind() === "ipv6" && !plain ? embeddedV4(ip as ipaddr.IPv6) : undefined;
  const never = NEVER.has(range) ? range : inner && NEVER.has(inner.range()) ? inner.range() : undefined;
  if (never) return `${address} is a ${never} address, which is never reached`;
  if (allowPrivate) return undefined;
  if (range !== "unicast") return `${address} is not a global unicast address (${range})${hint}`;
  if (ip.kind() === "ipv6" && ((ip as ipaddr.IPv6).match(V6_UNASSIGNED) || inner)) {
    return `${address} is not a global unicast address (reserved)${hint}`;
  }
  return undefined;
}

/** Why a host name (not an IP literal) may not be reached, or undefined when it may. */
export function nameRefusal(name: string, allowPrivate: boolean, hint = SERVER_ALLOW_HINT): string | undefined {
  const host = name.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(host)) return `${host} is a cloud metadata host, which is never reached`;
  if (allowPrivate) return undefined;
  if (host === "localhost" || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return `${host} is a local name${hint}`;
  }
  if (!host.includes(".")) return `${host} is a single-label (local) name${hint}`;
  return undefined;
}

/** Why a host (name or IP literal, IPv6 with or without brackets) may not be reached. */
export function hostRefusal(hostname: string, allowPrivate: boolean, hint = SERVER_ALLOW_HINT): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, "");
  return isIP(host) ? refusal(host, allowPrivate, hint) : nameRefusal(host, allowPrivate, hint);
}

/**
 * Why a target URL may not be used, or undefined when it may: the check at create and PATCH time
 * (IP literals and local names). Names that resolve to refused addresses are caught at connect time.
 */
export function targetProblem(url: string, allowPrivate: boolean, hint = SERVER_ALLOW_HINT): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be a valid URL";
  }
  const why = hostRefusal(parsed.hostname, allowPrivate, hint);
  return why ? `must not point at a private, loopback or metadata host: ${why}` : undefined;
}

/** A checker location's outbound policy, as `GET /api/v1/locations` lists it. */
export interface LocationPolicy {
  name: string;
  /** Whether it is the server's built-in checker. */
  builtin: boolean;
  /** Whether its checkers may reach private addresses; null while none of its agents has told. */
  allow_private_targets: boolean | null;
}

/**
 * Why the places that will probe `url` (the monitor's locations) may not reach it, or undefined
 * when each may. A location is judged by its own policy: the server's for the built-in checker,
 * its agents' for an agent location, so a private-network agent may watch a private name the
 * server itself may not reach. A location whose policy is not known yet (no agent of it has
 * reported) is not judged here: its agents apply their own policy when they probe.
 */
export function locationsTargetProblem(url: string, locations: readonly LocationPolicy[]): string | undefined {
  for (const location of locations) {
    if (location.allow_private_targets === null) continue;
    const hint = location.builtin
      ? SERVER_ALLOW_HINT
      : `; the agents of location ${location.name} run without --allow-private-targets: start them with it to reach it`;
    const why = targetProblem(url, location.allow_private_targets, hint);
    if (why) return why;
  }
  return undefined;
}

/**
 * A multi-step step's URL as the outbound policy can judge it before any run: its `{{variables}}`
 * filled with a placeholder. Undefined when its host comes from a variable: that host is known only
 * when the step runs, where the policy judges it.
 */
export function stepTargetUrl(url: string): string | undefined {
  const parts = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (!parts) return url;
  const [, scheme, authority, rest] = parts as unknown as [string, string, string, string];
  if (/\{\{/.test(authority.slice(authority.lastIndexOf("@") + 1))) return undefined;
  return `${scheme}${authority}${rest}`.replace(/\{\{[^{}]*\}\}/g, "x");
}

/**
 * Why the places that will run a multi-step monitor's steps may not reach them: one detail per
 * step whose URL (its host not a variable) `locations` refuse, on `steps[i].url`.
 */
export function stepsTargetProblems(
  steps: readonly { url: string }[],
  locations: readonly LocationPolicy[],
): { field: string; message: string }[] {
  return steps.flatMap((step, i) => {
    const url = stepTargetUrl(step.url);
    const why = url === undefined ? undefined : locationsTargetProblem(url, locations);
    return why ? [{ field: `steps[${i}].url`, message: why }] : [];
  });
}
