import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

// With `violate` set, each resource breaks one rule of test/engine/policy-packs/uptime-rules.
const violate = new pulumi.Config().getBoolean("violate") ?? false;

const pager = new uptime.Channel("pager", { name: violate ? "pager" : "team-pager", type: "webhook", config: { url: "https://hooks.example.com/pager" } });
const api = new uptime.Monitor("api", { type: "http", url: "https://api.example.com/health", intervalSec: violate ? 30 : 60, channelIds: [pager.id] });
new uptime.StatusPage("public", { slug: violate ? "public" : "status-public", title: "Acme", monitorIds: [api.id] });
new uptime.MaintenanceWindow("deploys", {
  monitorIds: [api.id],
  startsAt: "2026-01-04T01:00:00Z",
  endsAt: violate ? "2026-01-04T07:00:00Z" : "2026-01-04T02:00:00Z",
  rrule: "FREQ=WEEKLY;BYDAY=SU",
});
