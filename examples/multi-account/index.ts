import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

// The stack's default account: uptime:baseUrl and uptime:apiKey.
const production = new uptime.Monitor("production-site", {
  type: "http",
  url: config.get("productionUrl") ?? "https://www.example.com",
  intervalSec: 60,
  tags: ["production"],
});

// A second account, e.g. the staging team's, with its own key kept secret.
const staging: uptime.ConnectionArgs = {
  baseUrl: config.get("stagingBaseUrl"),
  apiKey: config.requireSecret("stagingApiKey"),
};
const stagingSite = new uptime.Monitor(
  "staging-site",
  { type: "http", url: config.get("stagingUrl") ?? "https://staging.example.com", intervalSec: 300, tags: ["staging"], connection: staging },
);
const stagingAlerts = new uptime.Channel("staging-alerts", {
  type: "email",
  config: { address: "staging-team@example.com" },
  connection: staging,
});

export const productionMonitorId = production.id;
export const stagingMonitorId = stagingSite.id;
export const stagingChannelId = stagingAlerts.id;
