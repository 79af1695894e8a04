import { DOMAIN_NAME, networkAssertionViolations, networkUrlProblem } from "../monitor-network";
import { f, type MonitorTypeDescriptor, nothing, urlMatching, urlRequired } from "./descriptor";

/** A domain registration, read from RDAP. */
export const domain = {
  url: urlMatching(`^domain://${DOMAIN_NAME.source.slice(1, -1)}/?$`, "must be domain://registered.name for domain monitors"),
  fields: () => ({
    body: nothing,
    assertions: f.assertions.optional(),
    domain_expiry_days: f.domain_expiry_days.optional(),
  }),
  checkUrl: urlRequired("domain", (url) => networkUrlProblem("domain", url)),
  violations: (m) => [
    ...networkAssertionViolations("domain", m),
  ],
  doc: { url: "`domain://name`", fields: ["domainExpiryDays", "assertions"], up: "RDAP has the registration, not expired and lasting at least `domainExpiryDays` days" },
} satisfies MonitorTypeDescriptor;
