import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const count = config.getNumber("monitors") ?? 40;
const withLinks = config.getBoolean("withLinks") ?? false;
// A change of either updates (intervalSec) or replaces (keyword: http becomes keyword) every monitor.
const intervalSec = config.getNumber("intervalSec") ?? 60;
const keyword = config.get("keyword");

const channels = withLinks
  ? [
      new uptime.Channel("ops", { type: "webhook", config: { url: "https://hooks.example.com/ops/t0ken" } }),
      new uptime.Channel("mail", { type: "email", config: { address: "oncall@example.com" } }),
    ]
  : [];

const monitors = Array.from(
  { length: count },
  (_, i) =>
    new uptime.Monitor(`site-${i}`, {
      type: keyword ? "keyword" : "http",
      url: `https://site-${i}.example.com/health`,
      ...(keyword ? { keyword } : {}),
      intervalSec,
      tags: ["fleet"],
      channelIds: channels.map((c) => c.id),
    }),
);

if (withLinks) {
  new uptime.StatusPage("public", {
    slug: config.get("slug") ?? "fleet",
    title: "Fleet",
    monitorIds: monitors.slice(0, 20).map((m) => m.id),
  });
}

export const monitorIds = monitors.map((m) => m.id);
