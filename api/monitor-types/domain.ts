import { DOMAIN_NAME } from "../monitor-network";
import { type MonitorTypeDescriptor, networkType, urlMatching } from "../monitor-type";

/** A domain registration, read from RDAP. */
export const domain = {
  order: 12,
  url: urlMatching(
    `^domain://${DOMAIN_NAME.source.slice(1, -1)}/?$`,
    "must be domain://registered.name for domain monitors",
  ),
  ...networkType("domain", ["domain_expiry_days"], {
    url: "`domain://name`",
    fields: ["domainExpiryDays"],
    up: "RDAP has the registration, not expired and lasting at least `domainExpiryDays` days",
  }),
} satisfies MonitorTypeDescriptor;
