import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
// The script's process.env: the site, and the password as a secret.
const variables = { SITE_URL: config.require("siteUrl"), PASSWORD: config.requireSecret("password") };

/** Logs in and finds the dashboard's greeting: up. */
const dashboard = new uptime.Monitor("dashboard", {
  type: "browser",
  script: readFileSync(`${__dirname}/checks/dashboard.spec.js`, "utf8"),
  variables,
  intervalSec: 300,
  timeoutSec: 20,
});

/** Asserts a text the dashboard does not show: down, with its evidence. With `brokenScript`, a script that does not parse. */
const promotion = new uptime.Monitor("promotion", {
  type: "browser",
  script: config.getBoolean("brokenScript") ? "await page.goto(process.env.SITE_URL;" : readFileSync(`${__dirname}/checks/missing-text.spec.js`, "utf8"),
  variables,
  intervalSec: 300,
  timeoutSec: 20,
});

export const ids = { dashboard: dashboard.id, promotion: promotion.id };
