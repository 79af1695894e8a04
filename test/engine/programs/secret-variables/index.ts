import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

export const journey = new uptime.Monitor("journey", {
  type: "multistep",
  intervalSec: 3600,
  variables: { password: config.requireSecret("password") },
  steps: [{ name: "log in", method: "POST", url: `${config.require("serviceUrl")}/login`, body: "{{password}}" }],
}).id;
