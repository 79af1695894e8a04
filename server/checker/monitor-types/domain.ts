import { assertTargetAllowed } from "../../outbound";
import type { CheckedMonitor } from "../monitor-fields";
import { failure, guarded, type ProbeContext, type ProbeResult } from "../probe";
import { daysLeft, judgeNetworkReply, type NetworkReply } from "../protocols/network-reply";
import { IANA_RDAP_BOOTSTRAP_URL, lookupRegistration, registrableDomain } from "../protocols/rdap";
import type { MonitorType } from "./monitor-type";

/** How a failure caused only by a registration expiring soon begins (as certificates' do). */
export const DOMAIN_EXPIRING_PREFIX = "domain registration expires in ";

/** What RDAP says of `domain`, and whether it expires sooner than `domain_expiry_days`. */
async function registrationReply(
  monitor: CheckedMonitor,
  ctx: ProbeContext,
  domain: string,
  now: number,
): Promise<NetworkReply> {
  const started = performance.now();
  const found = await lookupRegistration(
    ctx,
    ctx.rdapBootstrapUrl ?? IANA_RDAP_BOOTSTRAP_URL,
    domain,
    monitor.timeout_sec * 1000,
  );
  const left = found.expires_at === null ? null : daysLeft(Date.parse(found.expires_at), now);
  const reply = { ...found, days_left: left };
  const response_time_ms = Math.round(performance.now() - started);
  if (left !== null && left < 0)
    return {
      reply,
      response_time_ms,
      problem: {
        error: `domain registration expired ${-left} days ago (${found.expires_at})`,
        error_class: "assertion",
      },
    };
  const threshold = monitor.domain_expiry_days;
  if (left !== null && threshold !== null && left < threshold) {
    return {
      reply,
      response_time_ms,
      problem: {
        error: `${DOMAIN_EXPIRING_PREFIX}${left} days (${found.expires_at}), fewer than ${threshold}`,
        error_class: "assertion",
      },
    };
  }
  return { reply, response_time_ms };
}

/** A domain monitor's check: the registration of `domain://name` by RDAP, judged by the threshold and assertions. */
export function probeDomain(monitor: CheckedMonitor, ctx: ProbeContext, now: number): Promise<ProbeResult> {
  return guarded(monitor.timeout_sec, async () => {
    const domain = new URL(monitor.url ?? "").hostname;
    return judgeNetworkReply(ctx, monitor, await registrationReply(monitor, ctx, domain, now));
  });
}

/**
 * An http or keyword check with `domain_expiry_days`: once the request passed, the registration of
 * the URL host's registrable domain (by the public suffix list) must last at least that many days.
 */
export async function withDomainExpiry(
  result: ProbeResult,
  monitor: CheckedMonitor,
  ctx: ProbeContext,
  now: number,
): Promise<ProbeResult> {
  if (monitor.domain_expiry_days === null || !result.up) return result;
  const url = new URL(monitor.url ?? "");
  const domain = registrableDomain(url.hostname);
  if (!domain)
    return {
      ...result,
      up: false,
      error: `${url.hostname} has no registrable domain to check (domain_expiry_days)`,
      error_class: "assertion",
    };
  const started = performance.now();
  try {
    assertTargetAllowed(url, ctx.allowPrivate);
    const { problem } = await registrationReply(monitor, ctx, domain, now);
    return problem ? { ...result, up: false, ...problem } : result;
  } catch (err) {
    const failed = failure(err, monitor.timeout_sec, started);
    return { ...result, up: false, error: `domain expiry not read: ${failed.error}`, error_class: failed.error_class };
  }
}

/** domain monitors: up while the registration lasts at least `domain_expiry_days` and the assertions pass. */
export const domainType: MonitorType = {
  name: "domain",
  probes: true,
  check: (monitor, ctx, now) => probeDomain(monitor, ctx.probe, now),
};
