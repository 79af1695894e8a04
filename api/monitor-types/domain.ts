import { DOMAIN_NAME } from "../monitor-network";
import { f, type MonitorTypeDescriptor, networkType, urlMatching } from "../monitor-type";

/** A domain registration, read from RDAP. */
export const domain = {
  order: 12,
  url: urlMatching(
    `^domain://${DOMAIN_NAME.source.slice(1, -1)}/?$`,
    "must be domain://registered.name for domain monitors",
  ),
  ...networkType("domain", () => ({ domain_expiry_days: f.domain_expiry_days.optional() })),
  doc: {
    url: "`domain://name`",
    fields: ["domainExpiryDays", "assertions"],
    up: "RDAP has the registration, not expired and lasting at least `domainExpiryDays` days",
  },
} satisfies MonitorTypeDescriptor;
