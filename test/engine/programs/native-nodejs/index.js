// Every resource and function of the native uptime plugin's Node.js SDK (its resources are the
// plugin's, not dynamic resources): the same program as native-yaml and native-python.
"use strict";
const pulumi = require("@pulumi/pulumi");
const uptime = require("@pulumi-uptime/native");

const config = new pulumi.Config();

const hooks = new uptime.Channel("hooks", { type: "webhook", config: { webhook: { url: config.requireSecret("hookUrl") } } });

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

const status = new uptime.StatusPage("status", { slug: "api-status", title: "API status", monitorIds: [api.id] });

const sundays = new uptime.MaintenanceWindow("sundays", {
  monitorIds: [api.id],
  startsAt: "2030-01-06T01:00:00Z",
  endsAt: "2030-01-06T02:00:00Z",
  rrule: "FREQ=WEEKLY;BYDAY=SU",
  timeZone: "Europe/Berlin",
});

exports.channelId = hooks.id;
exports.monitorId = api.id;
exports.health = api.health;
// The plugin's functions: each object as the service holds it (secrets left out), and the reads.
exports.lookups = {
  monitorUrl: uptime.getMonitorOutput({ id: api.id }).url,
  channelType: uptime.getChannelOutput({ id: hooks.id }).type,
  pageTitle: uptime.getStatusPageOutput({ id: status.id }).title,
  windowTimeZone: uptime.getMaintenanceWindowOutput({ id: sundays.id }).timeZone,
  statsMonitorId: uptime.getMonitorStatsOutput({ monitorId: api.id, days: 1 }).monitorId,
  heartbeats: uptime.getMonitorHeartbeatsOutput({ monitorId: api.id, hours: 1 }).heartbeats,
  // The page's own service (and known only once the page exists).
  documentTitle: uptime.getStatusDocumentOutput({ slug: status.slug, baseUrl: status.endpoint }).title,
};
