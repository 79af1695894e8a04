import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

const probe = new uptime.Monitor(
  "probe",
  { type: "http", url: "https://example.com/", intervalSec: config.getNumber("interval") ?? 60, tags: [config.get("tag") ?? "a"] },
  { replaceOnChanges: ["intervalSec"] },
);

export const monitorId = probe.id;
