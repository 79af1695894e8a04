// A channel and a monitor through the native uptime plugin's Node.js SDK (its resources are the
// plugin's, not dynamic resources): the same program as native-yaml and native-python.
"use strict";
const pulumi = require("@pulumi/pulumi");
const uptime = require("@pulumi-uptime/native");

const config = new pulumi.Config();

const hooks = new uptime.Channel("hooks", { type: "webhook", config: { url: config.requireSecret("hookUrl") } });

const api = new uptime.Monitor("api", {
  type: "http",
  url: "https://example.com/health",
  intervalSec: config.getNumber("interval") ?? 60,
  headers: { "x-token": config.requireSecret("headerToken") },
  expectedStatusCodes: [200, "3xx"],
  assertions: [
    { source: "json_body", property: "$.status", comparison: "equals", target: "ok" },
    { source: "response_time", comparison: "less_than", target: "2000" },
  ],
  degradedResponseMs: 1000,
  channelIds: [hooks.id],
  tags: ["api", "prod"],
});

exports.channelId = hooks.id;
exports.monitorId = api.id;
exports.health = api.health;
