import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const monitorType = (config.get("monitorType") ?? "http") as "http" | "keyword";

const ops = new uptime.Channel("ops", { type: "webhook", config: { url: config.requireSecret("hookUrl") } });

// Whole inputs that are not known at the first preview (they wait for the channel's id), as
// programs compute them: a list of ids, a number and a flag from an apply, a map of secrets.
const afterOps = <T>(value: T) => ops.id.apply(() => value);
const api = new uptime.Monitor("api", {
  type: monitorType,
  url: "https://api.example.com/health",
  intervalSec: afterOps(config.getNumber("interval") ?? 60),
  keyword: monitorType === "keyword" ? "ok" : undefined,
  headers: pulumi.all([ops.id, config.requireSecret("headerToken")]).apply(([, token]) => ({ "X-Token": token })),
  channelIds: pulumi.all([ops.id]),
  tags: ["Prod", "api"],
  paused: afterOps(config.getBoolean("paused") ?? false),
  adopt: config.get("adoptMonitor"),
}, config.getBoolean("ignoreHeaders") ? { ignoreChanges: ["headers"] } : {});

const page = new uptime.StatusPage("public", { slug: config.require("slug"), title: "Acme", monitorIds: pulumi.all([api.id]) });

export const monitorId = api.id;
export const monitorUrn = api.urn;
export const channelId = ops.id;
export const statusPageId = page.id;
export const publicUrl = page.publicUrl;
// Inputs left unset are outputs too: the values the service stored.
export const monitorMethod = api.method;
export const monitorTimeoutSec = api.timeoutSec;
export const monitorHealth = api.health;
