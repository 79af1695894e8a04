import { checkDnsUrl } from "../monitor-extensions";
import { dnsResolver, f, HOST, type MonitorTypeDescriptor, urlMatching, urlRequired } from "../monitor-type";

/** A DNS query whose answers must equal the expected values. */
export const dns = {
  order: 5,
  url: urlMatching(`^dns://${HOST}/?$`, "must be dns://host.name for dns monitors"),
  checkUrl: urlRequired("dns", checkDnsUrl),
  fields: () => ({
    dns_expected_values: f.dns_expected_values.min(1, "must list at least one value for dns monitors"),
    dns_resolver: dnsResolver(),
  }),
  rules: () => {
    const values = (items: object) => ({ properties: { dns_expected_values: { items } } });
    const recordType = (t: string) => ({
      properties: { dns_record_type: { const: t } },
      required: t === "A" ? [] : ["dns_record_type"],
    });
    return [
      { if: recordType("A"), then: values({ format: "ipv4" }) },
      { if: recordType("AAAA"), then: values({ format: "ipv6" }) },
      { if: recordType("MX"), then: values({ pattern: "^\\s*[0-9]{1,5}\\s+\\S" }) },
    ];
  },
  doc: {
    url: "`dns://name`",
    fields: ["dnsRecordType", "dnsExpectedValues", "dnsResolver"],
    up: "the answers equal `dnsExpectedValues`",
  },
} satisfies MonitorTypeDescriptor;
