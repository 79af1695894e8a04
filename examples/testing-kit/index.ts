import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const site = config.require("siteUrl").replace(/\/+$/, "");

const team = new uptime.Channel("team-email", { type: "email", config: { address: "team@example.com" } });

const homepage = new uptime.Monitor("homepage", {
  name: "Homepage",
  type: "http",
  url: `${site}/`,
  intervalSec: 300,
  channelIds: [team.id],
});

const login = new uptime.Monitor("login", {
  name: "Login page",
  type: "keyword",
  url: `${site}/login`,
  intervalSec: 300,
  keyword: "Sign in",
  channelIds: [team.id],
});

const page = new uptime.StatusPage("public-status", {
  slug: "testing-kit",
  title: "Example status",
  monitorIds: [homepage.id, login.id],
});

export const homepageId = homepage.id;
export const statusUrl = page.publicUrl;
