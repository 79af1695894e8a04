import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();

export const journey = new uptime.Monitor("journey", {
  type: "multistep",
  intervalSec: 3600,
  variables: { password: config.requireSecret("password") },
  // A step's credential written as plain text (not a variable): its steps are stored as a secret.
  steps: [{ name: "log in", method: "POST", url: `${config.require("serviceUrl")}/login`, headers: { "X-Api-Key": "St3p-key \"plain\" & 4" }, body: "{{password}}" }],
}).id;

// A secret header (a credential by name): reads show its fingerprint, as a variable's.
export const api = new uptime.Monitor("api", {
  type: "http",
  url: config.require("serviceUrl"),
  intervalSec: 3600,
  headers: { Authorization: pulumi.interpolate`Bearer ${config.requireSecret("token")}`, Accept: "text/plain" },
}).id;
