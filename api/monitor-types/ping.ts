import { networkAssertionViolations, networkUrlProblem } from "../monitor-network";
import { f, HOST, type MonitorTypeDescriptor, nothing, urlMatching, urlRequired } from "./descriptor";

/** ICMP echo requests. */
export const ping = {
  url: urlMatching(`^ping://${HOST}/?$`, "must be ping://host (a name or an IP address) for ping monitors"),
  fields: () => ({
    body: nothing,
    assertions: f.assertions.optional(),
    ping_count: f.ping_count.optional(),
  }),
  checkUrl: urlRequired("ping", (url) => networkUrlProblem("ping", url)),
  violations: (m) => [
    ...networkAssertionViolations("ping", m),
  ],
  doc: { url: "`ping://host`", fields: ["pingCount", "assertions"], up: "an echo request is answered and the assertions (`$.packet_loss_pct`, `$.rtt_avg_ms`) pass" },
} satisfies MonitorTypeDescriptor;
