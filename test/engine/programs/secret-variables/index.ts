import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

export const journey = new uptime.Monitor("journey", {
  type: "multistep",
  intervalSec: 3600,
  variables: { password: config.requireSecret("password") },
  steps: [{ name: "log in", method: "POST", url: `${config.require("serviceUrl")}/login`, body: "{{password}}" }],
}).id;

// A secret header (a credential by name): reads show its fingerprint, as a variable's.
export const api = new uptime.Monitor("api", {
  type: "http",
  url: config.require("serviceUrl"),
  intervalSec: 3600,
  headers: { Authorization: pulumi.interpolate`Bearer ${config.requireSecret("token")}`, Accept: "text/plain" },
}).id;
