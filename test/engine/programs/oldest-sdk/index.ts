import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const api = new uptime.Monitor("api", { type: "http", url: "https://api.example.com/health", intervalSec: 60 });

export const monitorId = api.id;
// The package's resources are the program's own SDK's: one copy of @pulumi/pulumi.
export const isCustomResource = api instanceof pulumi.CustomResource;
export const sdkVersion: string = require("@pulumi/pulumi/package.json").version;
