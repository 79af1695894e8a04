import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

const site = new uptime.Monitor("website", {
  type: "http",
  url: config.require("siteUrl"),
  intervalSec: 60,
});

export const monitorId = site.id;
export const health = site.health;
