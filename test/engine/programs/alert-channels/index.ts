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
  // A step names its channels by their ids as Outputs, known after each channel is created.
  escalation: [{ after: 900, channels: [genie.id] }],
});

export const monitorId = api.id;
export const channelIds = [pager.id, genie.id, teams.id, discord.id, telegram.id];
