import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
// Without `serviceUrl` the monitors use the stack's defaults (uptime:baseUrl, uptime:apiKey).
const serviceUrl = config.get("serviceUrl");
const connection = serviceUrl ? { baseUrl: serviceUrl, apiKey: config.requireSecret("monitorKey") } : undefined;
const timeout = config.get("timeout");
const customTimeouts = timeout ? { create: timeout, update: timeout, delete: timeout } : undefined;

const monitors = ["a", "b", "c"].map(
  (name) =>
    new uptime.Monitor(
      name,
      { type: "http", url: `https://${name}.example.com/health`, intervalSec: config.getNumber("interval") ?? 60, connection },
      { customTimeouts },
    ),
);

export const ids = monitors.map((m) => m.id);
export const urns = monitors.map((m) => m.urn);
export const endpoints = monitors.map((m) => m.endpoint);
