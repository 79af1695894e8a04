import { networkAssertionViolations } from "../monitor-network";
import { HOST, type MonitorTypeDescriptor, networkType, PORT, urlMatching } from "../monitor-type";

/** An SMTP server: its banner, EHLO, STARTTLS and certificate. */
export const smtp = {
  order: 11,
  url: urlMatching(
    `^smtps?://${HOST}(?::${PORT})?/?$`,
    "must be smtp://host[:port] or smtps://host[:port] for smtp monitors",
  ),
  rules: () => [
    // STARTTLS only with smtp:// (smtps:// is TLS from the start); no certificate without TLS.
    {
      if: { properties: { url: { pattern: "^smtps://" } } },
      then: { properties: { smtp_starttls: { type: "null" } } },
    },
    {
      if: { properties: { smtp_starttls: { const: false } }, required: ["smtp_starttls"] },
      then: { properties: { ssl_expiry_days: { type: "null" } } },
    },
  ],
  ...networkType("smtp", ["ssl_expiry_days", "smtp_starttls"], {
    url: "`smtp://host[:port]` (STARTTLS), `smtps://host[:port]`",
    fields: ["smtpStarttls", "sslExpiryDays", "verifyTls"],
    up: "the banner is 220, EHLO is answered, STARTTLS succeeds (unless `smtpStarttls: false`) and the assertions (`$.banner`, `$.cert_days_left`) pass",
  }),
  violations: (m) => [
    ...(m.smtp_starttls === false && m.ssl_expiry_days !== null
      ? [{ field: "ssl_expiry_days", message: "is not allowed with smtp_starttls false (no certificate is read)" }]
      : []),
    ...networkAssertionViolations("smtp", m),
  ],
} satisfies MonitorTypeDescriptor;
