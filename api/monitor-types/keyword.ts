import { f, type MonitorTypeDescriptor } from "./descriptor";
import { httpRules, probeUrl } from "./http";

/** An HTTP(S) request whose body must contain a keyword. */
export const keyword = {
  url: probeUrl(),
  fields: () => ({
    keyword: f.keyword.unwrap(),
    assertions: f.assertions.optional(),
    ssl_expiry_days: f.ssl_expiry_days.optional(),
    domain_expiry_days: f.domain_expiry_days.optional(),
  }),
  rules: httpRules,
  doc: { url: "`http(s)://…`", fields: ["keyword", "keywordCaseSensitive", "method", "headers", "body", "assertions", "sslExpiryDays", "verifyTls", "domainExpiryDays"], up: "as http, and the body contains `keyword`" },
} satisfies MonitorTypeDescriptor;
