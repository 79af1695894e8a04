import type { MonitorType } from "./monitor";

/** One monitor type in the README's table: its URL, the properties of its own, and when it is up. */
export interface MonitorTypeDoc {
  /** The `url` it takes, in words. */
  url: string;
  /** Properties (camelCase) it adds to or reads beyond the common ones (`intervalSec`, `timeoutSec`, …). */
  fields: readonly string[];
  /** When a check of it passes. */
  up: string;
}

/**
 * Every monitor type, in the README's order: the source of its "Monitor types" table
 * (`npm run readme`). `satisfies Record<MonitorType, …>` keeps a new type from being left out.
 */
export const MONITOR_TYPE_DOCS = {
  http: { url: "`http(s)://…`", fields: ["method", "headers", "body", "expectedStatusCodes", "followRedirects", "assertions", "sslExpiryDays", "verifyTls", "domainExpiryDays"], up: "the status is expected and the assertions pass; with `sslExpiryDays`/`domainExpiryDays`, the certificate and the registration last that long" },
  keyword: { url: "`http(s)://…`", fields: ["keyword", "keywordCaseSensitive", "method", "headers", "body", "assertions", "sslExpiryDays", "verifyTls", "domainExpiryDays"], up: "as http, and the body contains `keyword`" },
  tcp: { url: "`tcp://host:port`", fields: [], up: "a connection opens" },
  heartbeat: { url: "none (it is pinged at its `pushUrl`)", fields: ["graceSec"], up: "a ping arrived within `intervalSec` + `graceSec`" },
  dns: { url: "`dns://name`", fields: ["dnsRecordType", "dnsExpectedValues", "dnsResolver"], up: "the answers equal `dnsExpectedValues`" },
  multistep: { url: "none (each step has its own)", fields: ["steps", "variables"], up: "every step passes, in order" },
  grpc: { url: "`grpc://host:port`, `grpcs://host:port`", fields: ["grpcService", "headers", "assertions", "verifyTls"], up: "`grpc.health.v1` answers SERVING" },
  websocket: { url: "`ws(s)://…`", fields: ["headers", "body", "assertions", "verifyTls", "followRedirects"], up: "the first message arrives and the assertions pass" },
  udp: { url: "`udp://host:port`", fields: ["body", "assertions"], up: "a reply to `body` arrives and the assertions pass" },
  ping: { url: "`ping://host`", fields: ["pingCount", "assertions"], up: "an echo request is answered and the assertions (`$.packet_loss_pct`, `$.rtt_avg_ms`) pass" },
  smtp: { url: "`smtp://host[:port]` (STARTTLS), `smtps://host[:port]`", fields: ["smtpStarttls", "sslExpiryDays", "verifyTls", "assertions"], up: "the banner is 220, EHLO is answered, STARTTLS succeeds (unless `smtpStarttls: false`) and the assertions (`$.banner`, `$.cert_days_left`) pass" },
  domain: { url: "`domain://name`", fields: ["domainExpiryDays", "assertions"], up: "RDAP has the registration, not expired and lasting at least `domainExpiryDays` days" },
  browser: { url: "none (the script opens its pages)", fields: ["script", "variables"], up: "the Playwright script runs to its end in the sandbox: every `expect` passes and nothing is refused by the outbound policy" },
} as const satisfies Record<MonitorType, MonitorTypeDoc>;
