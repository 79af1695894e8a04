import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const site = config.require("siteUrl").replace(/\/+$/, "");
const siteHost = new URL(site);

// Where alerts go. URLs carry tokens, so they come from secret config.
const oncall = new uptime.Channel("oncall-webhook", {
  type: "webhook",
  config: { url: config.requireSecret("webhookUrl"), secret: config.requireSecret("webhookSecret") },
});
const slack = new uptime.Channel("team-slack", {
  type: "slack",
  config: { webhookUrl: config.requireSecret("slackWebhookUrl") },
});
const everyone = [oncall.id, slack.id];

const homepage = new uptime.Monitor("homepage", {
  name: "Homepage",
  type: "http",
  url: `${site}/`,
  intervalSec: 60,
  tags: ["web", "public"],
  channelIds: everyone,
});

const api = new uptime.Monitor("api-health", {
  name: "API health",
  type: "http",
  url: `${site}/health`,
  intervalSec: 30,
  timeoutSec: 5,
  method: "GET",
  headers: { Accept: "application/json" },
  expectedStatusCodes: [200],
  // Slower than 2 s is degraded (no incident), slower than 4 s is down.
  degradedResponseMs: 2000,
  maxResponseMs: 4000,
  assertions: [
    { source: "headers", property: "Content-Type", comparison: "contains", target: "json" },
    { source: "json_body", property: "$.status", comparison: "equals", target: "ok" },
    { source: "response_time", comparison: "less_than", target: "3000" },
  ],
  tags: ["api", "public"],
  channelIds: everyone,
});

const apiStatus = new uptime.Monitor("api-status-keyword", {
  name: "API reports ok",
  type: "keyword",
  url: `${site}/health`,
  intervalSec: 60,
  keyword: "ok",
  tags: ["api"],
  channelIds: [oncall.id],
});

const port = new uptime.Monitor("web-port", {
  name: "Web port",
  type: "tcp",
  url: `tcp://${siteHost.hostname}:${siteHost.port || (siteHost.protocol === "https:" ? 443 : 80)}`,
  intervalSec: 120,
  tags: ["network"],
  channelIds: [oncall.id],
});

const page = new uptime.StatusPage("public-status", {
  slug: config.require("statusSlug"),
  title: "Acme status",
  description: "Live health of Acme's public services.",
  monitorIds: [homepage.id, api.id, apiStatus.id, port.id],
});

export const monitorIds = { homepage: homepage.id, api: api.id, apiStatus: apiStatus.id, port: port.id };
export const channelIds = { oncall: oncall.id, slack: slack.id };
export const statusPageUrl = page.publicUrl;
// A read function, once the monitor exists: its uptime over the last 7 days (null before its first check).
export const apiUptimePct7d = api.id.apply(async (monitorId) => (await uptime.getMonitorStats({ monitorId, days: 7 })).uptime_pct);
