import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const interval = config.getNumber("interval") ?? 60;
for (let i = 0; i < count; i++) {
  new uptime.Monitor(`m${i}`, {
    type: "http",
    url: `https://site-${i}.example.com/health`,
    intervalSec: interval,
    tags: ["bench"],
  });
}
