import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const monitor = (name: string, url: string) => new uptime.Monitor(name, { type: "http", url, intervalSec: 60, tags: ["prod"] });
const api = monitor("api", "https://api.example.com/health");
const apiEu = monitor("api-eu", "https://eu.api.example.com/health");
const web = monitor("web", "https://www.example.com/");
const docs = monitor("docs", "https://docs.example.com/");

const page = new uptime.StatusPage("public", {
  slug: config.require("slug"),
  title: "Acme",
  sections: [
    {
      name: "Core",
      components: [
        { key: "api", name: "Public API", monitors: [api.id, apiEu.id], rule: "all-down" },
        { key: "web", name: "Website", monitors: [web.id] },
      ],
    },
    {
      name: "Help",
      components: [
        { key: "docs", name: "Documentation", monitors: [docs.id], rule: "response-time", threshold: 800 },
        { key: "support", name: "Support desk", rule: "manual" },
      ],
    },
  ],
  incidentRules: [{ component: "api", minutes: 5, title: "{name} is down", message: "{name} has been down for {minutes} minutes." }],
  customDomain: config.require("domain"),
  password: config.requireSecret("pagePassword"),
  locale: "de",
  brandColor: "#0969da",
});

export const statusPageId = page.id;
export const pageUrl = page.pageUrl;
export const passwordSet = page.passwordSet;
