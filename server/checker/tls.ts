import { connect, type PeerCertificate } from "node:tls";
import { interceptors } from "undici";
import { CERT_EXPIRING_PREFIX } from "../notification-event";
import { assertTargetAllowed, outboundAgent, safeLookup } from "../outbound";
import type { CheckedMonitor } from "./monitor-fields";
import type { ProbeContext, ProbeResult } from "./probe";

const DAY_MS = 86_400_000;
/** Dispatchers that accept any certificate, for `verify_tls: false`; the caller closes them. */
export function insecureContext(allowPrivate: boolean): ProbeContext {
  const direct = outboundAgent(allowPrivate, { connect: { rejectUnauthorized: false } });
  return { direct, follow: direct.compose(interceptors.redirect({ maxRedirections: 5 })), allowPrivate };
}

/** The certificate the host presents (checked or not: only its dates are read here). */
export function peerCertificate(url: URL, timeoutMs: number, allowPrivate: boolean): Promise<PeerCertificate> {
  assertTargetAllowed(url, allowPrivate);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: Number(url.port || 443),
      servername: url.hostname,
      rejectUnauthorized: false,
      lookup: safeLookup(allowPrivate) as never,
      timeout: timeoutMs,
    });
    socket.once("secureConnect", () => {
      const cert = socket.getPeerCertificate();
      socket.destroy();
      resolve(cert);
    });
    socket.once("timeout", () =>
      socket.destroy(new Error(`TLS handshake timed out after ${Math.round(timeoutMs / 1000)} s`)),
    );
    socket.once("error", reject);
  });
}

/**
 * An https check with the certificate extensions: the request `run` makes (through dispatchers
 * that accept any certificate when `verify_tls` is false), then, with `ssl_expiry_days`, the
 * certificate's expiry, which every heartbeat carries and which is down when fewer days remain.
 */
export async function probeHttps(
  ctx: ProbeContext,
  insecure: () => ProbeContext,
  monitor: CheckedMonitor,
  run: (ctx: ProbeContext) => Promise<ProbeResult>,
  now = Date.now(),
): Promise<ProbeResult & { cert_expires_at?: string | null }> {
  const result = await run(monitor.verify_tls ? ctx : insecure());
  if (monitor.ssl_expiry_days === null) return result;
  let expires: number;
  try {
    const cert = await peerCertificate(new URL(monitor.url ?? ""), monitor.timeout_sec * 1000, ctx.allowPrivate);
    expires = Date.parse(cert.valid_to);
  } catch (err) {
    return result.up ? { ...result, up: false, error: `certificate not read: ${(err as Error).message}` } : result;
  }
  const cert_expires_at = new Date(expires).toISOString();
  const daysLeft = Math.floor((expires - now) / DAY_MS);
  if (result.up && daysLeft < monitor.ssl_expiry_days) {
    return {
      ...result,
      up: false,
      cert_expires_at,
      error: `${CERT_EXPIRING_PREFIX}${daysLeft} days (${cert_expires_at}), fewer than ${monitor.ssl_expiry_days}`,
    };
  }
  return { ...result, cert_expires_at };
}
