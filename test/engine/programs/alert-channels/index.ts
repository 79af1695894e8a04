import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const vendorUrl = config.require("vendorUrl");

const pager = new uptime.Channel("pager", {
  type: "pagerduty",
  config: { routingKey: config.requireSecret("routingKey"), severity: "error", apiUrl: vendorUrl },
});
const genie = new uptime.Channel("genie", {
  type: "opsgenie",
  config: { apiKey: config.requireSecret("opsgenieKey"), region: "eu", apiUrl: vendorUrl },
  events: ["down", "recovered", "certificate_expiring"],
});
const teams = new uptime.Channel("teams", { type: "teams", config: { webhookUrl: config.requireSecret("teamsUrl") } });
const discord = new uptime.Channel("discord", { type: "discord", config: { webhookUrl: config.requireSecret("discordUrl") }, notifyDegraded: true });
const telegram = new uptime.Channel("telegram", {
  type: "telegram",
  config: { botToken: config.requireSecret("botToken"), chatId: "-1001234567890", apiUrl: vendorUrl },
});

const api = new uptime.Monitor("api", {
  type: "http",
  url: "https://api.example.com/health",
  intervalSec: 60,
  channelIds: [pager.id, teams.id, discord.id, telegram.id],
  remindEverySec: 600,
  // A step names channel ids: one known after its channel is created.
  escalation: [genie.id.apply((id) => ({ after: 900, channels: [id] }))],
});

export const monitorId = api.id;
export const channelIds = [pager.id, genie.id, teams.id, discord.id, telegram.id];
