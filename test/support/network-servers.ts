import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { localhostCert } from "./protocol-servers";

/** A local SMTP server (smtp-server) with a self-signed certificate for `localhost`. */
export interface SmtpTarget {
  /** `smtp://localhost:port`, or `smtps://localhost:port` for TLS from the start. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts an SMTP server on 127.0.0.1: STARTTLS offered (unless `starttls` is false), or TLS from
 * the start (`implicit`); its certificate is self-signed and expires in `certDays` days.
 */
export async function startSmtpServer(
  options: { implicit?: boolean; starttls?: boolean; certDays?: number } = {},
): Promise<SmtpTarget> {
  const { key, cert } = await localhostCert(options.certDays ?? 30);
  const server = new SMTPServer({
    secure: options.implicit ?? false,
    key,
    cert,
    hideSTARTTLS: options.starttls === false,
    authOptional: true,
    banner: "uptime test relay",
    name: "mx.localhost",
    logger: false,
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.on("end", () => callback());
    },
  });
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `${options.implicit ? "smtps" : "smtp"}://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A local RDAP service: the bootstrap file and `domain/<name>` answers (RFC 9083). */
export interface RdapTarget {
  /** The bootstrap file's URL, for the server's `rdapBootstrapUrl`. */
  bootstrapUrl: string;
  /** Each path asked, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves `/bootstrap.json` (the TLDs `example` and `test` at this server's `/rdap/`) and, for each
 * name of `registrations`, a domain object whose `expiration` event is that many days from now;
 * other names are 404.
 */
export async function startRdapServer(registrations: Record<string, number>): Promise<RdapTarget> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(path);
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/rdap+json" }).end(JSON.stringify(body));
    if (path === "/bootstrap.json") {
      return json(200, {
        version: "1.0",
        publication: new Date().toISOString(),
        services: [[["example", "test"], [`${base}/rdap/`]]],
      });
    }
    const name = /^\/rdap\/domain\/([^/]+)$/.exec(path)?.[1]?.toLowerCase();
    const days = name === undefined ? undefined : registrations[name];
    if (name === undefined || days === undefined) return json(404, { errorCode: 404, title: "Not Found" });
    const at = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
    json(200, {
      objectClassName: "domain",
      ldhName: name,
      events: [
        { eventAction: "registration", eventDate: at(-400) },
        { eventAction: "expiration", eventDate: at(days) },
      ],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    bootstrapUrl: `${base}/bootstrap.json`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
