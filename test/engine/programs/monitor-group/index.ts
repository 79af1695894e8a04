import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

const shop = new uptime.MonitorGroup("shop", {
  intervalSec: config.requireNumber("intervalSec"),
  confirmations: 2,
  tags: ["shop"],
  monitors: {
    web: { type: "http", url: config.require("webUrl") },
    api: { type: "http", url: config.require("apiUrl") },
    // Its own interval wins over the group's; its tags add to the group's.
    admin: { type: "http", url: config.require("adminUrl"), intervalSec: 300, tags: ["back-office"] },
  },
  maintenanceWindows: {
    nightly: { startsAt: "2030-01-01T02:00:00Z", endsAt: "2030-01-01T03:00:00Z", rrule: "FREQ=DAILY" },
  },
});

export const monitorIds = shop.monitorIds;
export const windowId = shop.maintenanceWindows.nightly?.id;
