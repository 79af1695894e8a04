import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

/** Echo requests to the loopback address: no loss, and a round trip under 100 ms. */
const loopback = new uptime.Monitor("loopback-ping", {
  type: "ping",
  // With `badPingUrl`, the URL names a port: the preview fails, naming the field and the rule.
  url: config.get("badPingUrl") ?? "ping://127.0.0.1",
  pingCount: 2,
  assertions: [
    { source: "json_body", property: "$.packet_loss_pct", comparison: "equals", target: "0" },
    { source: "json_body", property: "$.rtt_avg_ms", comparison: "less_than", target: "100" },
  ],
  intervalSec: 30,
  timeoutSec: 2,
});

/** A mail relay: banner, EHLO, STARTTLS (a self-signed certificate), and at least a week left on it. */
const relay = new uptime.Monitor("relay-smtp", {
  type: "smtp",
  url: config.require("smtpUrl"),
  verifyTls: false,
  sslExpiryDays: 7,
  assertions: [{ source: "json_body", property: "$.banner", comparison: "contains", target: "ESMTP" }],
  intervalSec: 30,
  timeoutSec: 2,
});

/** The registration of shop.example: at least 30 days left, read through RDAP. */
const shop = new uptime.Monitor("shop-domain", {
  type: "domain",
  url: "domain://shop.example",
  domainExpiryDays: 30,
  intervalSec: 30,
  timeoutSec: 2,
});

export const ids = { ping: loopback.id, smtp: relay.id, domain: shop.id };
