import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import { isIP } from "node:net";
import { assertTargetAllowed } from "../../outbound";
import type { CheckedMonitor } from "../monitor-fields";
import { guarded, type ProbeContext, type ProbeResult } from "../probe";
import { daysLeft, judgeNetworkReply, type NetworkReply } from "../protocols/network-reply";
import { allowedAddress, timedOut } from "../protocols/reply";
import { SmtpSession } from "../protocols/smtp-session";
import { CERT_EXPIRING_PREFIX } from "../../notification-event";
import type { MonitorType } from "./monitor-type";

/** The name this client gives in EHLO. */
const EHLO_NAME = "uptime-check.invalid";

/** A socket opened at `address`, TLS from the start for smtps://; kept in `sockets` to be closed. */
function open(
  url: URL,
  address: string,
  tls: boolean,
  verify: boolean,
  servername: string | undefined,
  sockets: Socket[],
): Promise<Socket> {
  const port = Number(url.port || (tls ? 465 : 25));
  return new Promise((resolve, reject) => {
    const socket = tls
      ? tlsConnect({ host: address, port, servername, rejectUnauthorized: verify })
      : netConnect({ host: address, port });
    sockets.push(socket);
    socket.once(tls ? "secureConnect" : "connect", () => {
      socket.removeListener("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** TLS over the plain socket after `STARTTLS` was accepted. */
function upgrade(
  socket: Socket,
  verify: boolean,
  servername: string | undefined,
  sockets: Socket[],
): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({ socket, servername, rejectUnauthorized: verify });
    sockets.push(secure);
    secure.once("secureConnect", () => {
      secure.removeListener("error", reject);
      resolve(secure);
    });
    secure.once("error", reject);
  });
}

/** The banner, EHLO, STARTTLS when asked, EHLO again over TLS, QUIT: what the check found. */
async function converse(monitor: CheckedMonitor, url: URL, address: string, sockets: Socket[]): Promise<NetworkReply> {
  const started = performance.now();
  const implicit = url.protocol === "smtps:";
  const starttls = !implicit && monitor.smtp_starttls !== false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const servername = isIP(host) ? undefined : host;
  const first = await open(url, address, implicit, monitor.verify_tls, servername, sockets);
  const connect_ms = Math.round(performance.now() - started);
  const session = new SmtpSession(first);
  const banner = await session.read();
  const reply: Record<string, unknown> = {
    banner: banner.lines.join("\n"),
    banner_code: banner.code,
    tls: implicit,
    starttls: false,
  };
  const down = (error: string): NetworkReply => ({
    reply,
    response_time_ms: Math.round(performance.now() - started),
    problem: { error, error_class: "assertion" },
  });
  if (banner.code !== 220) return down(`the banner is ${banner.code}, not 220: ${banner.lines[0] ?? ""}`);
  let ehlo = await session.command(`EHLO ${EHLO_NAME}`);
  if (ehlo.code !== 250) return down(`EHLO answered ${ehlo.code}: ${ehlo.lines.join(" ")}`);
  let secure: TLSSocket | undefined = implicit ? (first as TLSSocket) : undefined;
  if (starttls) {
    if (!ehlo.lines.slice(1).some((l) => /^STARTTLS\b/i.test(l)))
      return down("the server does not offer STARTTLS (set smtp_starttls false to check it without TLS)");
    const ready = await session.command("STARTTLS");
    if (ready.code !== 220) return down(`STARTTLS answered ${ready.code}: ${ready.lines.join(" ")}`);
    secure = await upgrade(session.release(), monitor.verify_tls, servername, sockets);
    session.attach(secure);
    reply.starttls = true;
    reply.tls = true;
    ehlo = await session.command(`EHLO ${EHLO_NAME}`);
  }
  reply.ehlo = ehlo.lines.slice(1);
  await session.command("QUIT").catch(() => undefined);
  const found: NetworkReply = {
    reply,
    response_time_ms: Math.round(performance.now() - started),
    timings: { connect_ms },
  };
  if (!secure) return found;
  const cert = secure.getPeerCertificate();
  const expires = Date.parse(cert.valid_to);
  const cert_expires_at = Number.isNaN(expires) ? null : new Date(expires).toISOString();
  const left = cert_expires_at === null ? null : daysLeft(expires);
  Object.assign(reply, { tls_protocol: secure.getProtocol(), cert_expires_at, cert_days_left: left });
  found.cert_expires_at = cert_expires_at;
  if (monitor.ssl_expiry_days !== null && left !== null && left < monitor.ssl_expiry_days) {
    found.problem = {
      error: `${CERT_EXPIRING_PREFIX}${left} days (${cert_expires_at}), fewer than ${monitor.ssl_expiry_days}`,
      error_class: "tls",
    };
  }
  return found;
}

/** One SMTP check within the timeout; the sockets it opened are closed whatever happens. */
export function probeSmtp(monitor: CheckedMonitor, ctx: ProbeContext): Promise<ProbeResult> {
  return guarded(monitor.timeout_sec, async () => {
    const url = new URL(monitor.url ?? "");
    assertTargetAllowed(url, ctx.allowPrivate);
    const { address } = await allowedAddress(url.hostname, ctx);
    const sockets: Socket[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      const found = await Promise.race([
        converse(monitor, url, address, sockets),
        new Promise<never>(
          (_, reject) => (timer = setTimeout(() => reject(timedOut(monitor.timeout_sec)), monitor.timeout_sec * 1000)),
        ),
      ]);
      return await judgeNetworkReply(ctx, monitor, found);
    } finally {
      clearTimeout(timer);
      for (const s of sockets) s.destroy();
    }
  });
}

/** smtp monitors: up when the server greets, answers EHLO, upgrades to TLS when asked, and the assertions pass. */
export const smtpType: MonitorType = {
  name: "smtp",
  probes: true,
  check: (monitor, ctx) => probeSmtp(monitor, ctx.probe),
};
