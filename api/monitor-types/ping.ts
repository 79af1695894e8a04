import { HOST, type MonitorTypeDescriptor, networkType, urlMatching } from "../monitor-type";

/** ICMP echo requests. */
export const ping = {
  order: 10,
  url: urlMatching(`^ping://${HOST}/?$`, "must be ping://host (a name or an IP address) for ping monitors"),
  ...networkType("ping", ["ping_count"], {
    url: "`ping://host`",
    fields: ["pingCount"],
    up: "an echo request is answered and the assertions (`$.packet_loss_pct`, `$.rtt_avg_ms`) pass",
  }),
} satisfies MonitorTypeDescriptor;
