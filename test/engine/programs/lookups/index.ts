import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

// A channel another team made, found by its name: no id copied into the program.
const ops = uptime.getChannelOutput({ name: config.require("channelName") });

const api = new uptime.Monitor("api", {
  type: "http",
  url: "https://api.example.com/health",
  intervalSec: 60,
  channelIds: [ops.id],
});

// The plain form, by slug, and the Output form by an id known after the create.
const page = uptime.getStatusPage({ slug: config.require("statusSlug") });
const found = uptime.getMonitorOutput({ id: api.id });

export const monitorId = api.id;
export const channelId = ops.id;
export const channelType = ops.type;
export const statusPageTitle = page.then((p) => p.title);
export const foundMonitorName = found.name;
