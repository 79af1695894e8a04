import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const monitorType = (config.get("monitorType") ?? "http") as "http" | "keyword";

const ops = new uptime.Channel("ops", { type: "webhook", config: { url: config.requireSecret("hookUrl") } });

const api = new uptime.Monitor("api", {
  type: monitorType,
  url: "https://api.example.com/health",
  intervalSec: config.getNumber("interval") ?? 60,
  keyword: monitorType === "keyword" ? "ok" : undefined,
  headers: { "X-Token": config.requireSecret("headerToken") },
  channelIds: [ops.id],
  tags: ["Prod", "api"],
  paused: config.getBoolean("paused") ?? false,
  adopt: config.get("adoptMonitor"),
});

const page = new uptime.StatusPage("public", { slug: config.require("slug"), title: "Acme", monitorIds: [api.id] });

export const monitorId = api.id;
export const monitorUrn = api.urn;
export const channelId = ops.id;
export const statusPageId = page.id;
export const publicUrl = page.publicUrl;
// Inputs left unset are outputs too: the values the service stored.
export const monitorMethod = api.method;
export const monitorTimeoutSec = api.timeoutSec;
export const monitorHealth = api.health;
