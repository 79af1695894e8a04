import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import { hostRefusal, nameRefusal, refusal, TARGET_CONFIG_KEYS, targetProblem } from "../api";

export { hostRefusal, refusal, targetProblem } from "../api";

/**
 * The outbound policy: every connection the server makes (probes, each redirect hop, webhook and
 * Slack deliveries) goes to a global unicast address only, by ipaddr.js's range classification.
 * With private targets allowed (tests, on-premises), everything but link-local (where cloud
 * metadata lives), unspecified, multicast and broadcast addresses is reachable.
 */

/** An error with a stable code for refused destinations. */
export class TargetRefusedError extends Error {
  readonly code = "target_refused";
}

/** Throws TargetRefusedError when a URL's host is refused (names by name, IP literals by range). */
export function assertTargetAllowed(url: URL, allowPrivate: boolean): void {
  const why = hostRefusal(url.hostname, allowPrivate);
  if (why) throw new TargetRefusedError(`connection refused by the outbound policy: ${why}`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

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
