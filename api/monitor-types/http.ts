import { absoluteUrl, type ErrorDetail } from "../common";
import type { MonitorFieldValues } from "../monitor-fields";
import { DOMAIN_NAME } from "../monitor-network";
import { f, type MonitorTypeDescriptor, type MonitorTypeDoc, urlMatching, urlRequired } from "../monitor-type";

/** The `url` of the HTTP types (http, keyword). */
export function probeUrl() {
  return urlMatching(/^https?:\/\/[^\s/?#@\\]+(?:[/?#]\S*)?$/, "must start with http:// or https://");
}

/** The server's check of the `url` of an HTTP type. */
export function httpUrl(type: "http" | "keyword") {
  return urlRequired(type, (raw) =>
    absoluteUrl(raw, (url) => {
      if (url.protocol !== "http:" && url.protocol !== "https:")
        return `must start with http:// or https:// for ${type} monitors`;
      return url.hostname ? undefined : "must name a host";
    }),
  );
}

/** The server's rules of the HTTP types (http, keyword): domain expiry needs a domain name. */
export function httpViolations(m: MonitorFieldValues): ErrorDetail[] {
  let host = "";
  try {
    host = new URL(m.url ?? "").hostname;
  } catch {
    // No host: the url's own error says why.
  }
  return m.domain_expiry_days !== null && !DOMAIN_NAME.test(host)
    ? [
        {
          field: "domain_expiry_days",
          message: "needs a url whose host is a domain name (not an IP address or a single label)",
        },
      ]
    : [];
}

/** The rules of the HTTP types (http, keyword) across fields. */
export function httpRules(): object[] {
  return [
    {
      // Domain expiry only where the URL's host is a domain name.
      if: {
        properties: {
          url: { not: { pattern: `^https?://${DOMAIN_NAME.source.slice(1, -1)}(?::[0-9]*)?(?:[/?#]|$)` } },
        },
      },
      then: { properties: { domain_expiry_days: { type: "null" } } },
    },
    {
      // Certificate expiry only for https:// URLs.
      if: { properties: { url: { not: { pattern: "^https://" } } } },
      then: { properties: { ssl_expiry_days: { type: "null" } } },
    },
  ];
}

/** The fields of an HTTP(S) request, as the README's table lists them (keyword monitors take them too). */
export const HTTP_DOC_FIELDS = [
  "method",
  "headers",
  "body",
  "expectedStatusCodes",
  "followRedirects",
  "assertions",
  "sslExpiryDays",
  "verifyTls",
  "domainExpiryDays",
] satisfies MonitorTypeDoc["fields"];

/** An HTTP(S) request: its status, assertions, certificate and registration. */
export const http = {
  order: 1,
  url: probeUrl(),
  fields: () => ({
    assertions: f.assertions.optional(),
    ssl_expiry_days: f.ssl_expiry_days.optional(),
    domain_expiry_days: f.domain_expiry_days.optional(),
  }),
  rules: httpRules,
  checkUrl: httpUrl("http"),
  violations: httpViolations,
  doc: {
    url: "`http(s)://…`",
    fields: HTTP_DOC_FIELDS,
    up: "the status is expected and the assertions pass; with `sslExpiryDays`/`domainExpiryDays`, the certificate and the registration last that long",
  },
} satisfies MonitorTypeDescriptor;
