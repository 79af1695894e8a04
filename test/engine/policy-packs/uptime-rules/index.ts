import { PolicyPack, validateResourceOfType } from "@pulumi/policy";
import * as uptime from "pulumi-uptime";

const HOUR_MS = 3_600_000;

// Typed policies: each applies to one resource class of pulumi-uptime and sees its inputs typed.
new PolicyPack("uptime-rules", {
  enforcementLevel: "mandatory",
  policies: [
    {
      name: "monitor-interval",
      description: "A monitor checks at most once a minute.",
      validateResource: validateResourceOfType(uptime.Monitor, (monitor, _args, reportViolation) => {
        if (monitor.intervalSec < 60)
          reportViolation(`intervalSec is ${monitor.intervalSec}: monitors check at most once a minute (60 or more).`);
      }),
    },
    {
      name: "channel-name",
      description: "A channel's name says which team it pages.",
      validateResource: validateResourceOfType(uptime.Channel, (channel, _args, reportViolation) => {
        if (!channel.name?.startsWith("team-"))
          reportViolation(`channel name '${channel.name}' must start with 'team-'.`);
      }),
    },
    {
      name: "status-page-slug",
      description: "Status pages live under status-*.",
      validateResource: validateResourceOfType(uptime.StatusPage, (page, _args, reportViolation) => {
        if (!page.slug.startsWith("status-"))
          reportViolation(`status page slug '${page.slug}' must start with 'status-'.`);
      }),
    },
    {
      name: "maintenance-window-length",
      description: "A maintenance window lasts four hours at most.",
      validateResource: validateResourceOfType(uptime.MaintenanceWindow, (window, _args, reportViolation) => {
        const hours = (Date.parse(window.endsAt) - Date.parse(window.startsAt)) / HOUR_MS;
        if (hours > 4) reportViolation(`maintenance window lasts ${hours} hours: four at most.`);
      }),
    },
  ],
});
