import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const base = config.require("serviceUrl");
// With `typo`, step 3 names a variable no earlier step extracts: the preview fails.
const id = config.getBoolean("typo") ? "{{itemid}}" : "{{id}}";

export const journey = new uptime.Monitor("journey", {
  type: "multistep",
  intervalSec: 30,
  timeoutSec: 5,
  variables: { password: config.requireSecret("password") },
  // A network error is tried again after 100 ms, then 200 ms; a failed assertion is not.
  retry: { strategy: "linear", delay: 100, trigger: "network" },
  steps: [
    {
      name: "log in",
      method: "POST",
      url: `${base}/login`,
      headers: { "Content-Type": "application/json" },
      body: '{"user":"probe","password":"{{password}}"}',
      extract: [{ name: "token", source: "json_body", property: "$.token", secret: true }],
    },
    {
      name: "create",
      method: "POST",
      url: `${base}/items`,
      headers: { Authorization: "Bearer {{token}}", "Content-Type": "application/json" },
      body: '{"name":"probe item"}',
      statuses: [201],
      extract: [{ name: "id", source: "json_body", property: "$.id" }],
    },
    {
      name: "read",
      url: `${base}/items/${id}`,
      headers: { Authorization: "Bearer {{token}}" },
      assertions: [{ source: "json_body", property: "$.name", comparison: "equals", target: "probe item" }],
    },
    { name: "delete", method: "DELETE", url: `${base}/items/{{id}}`, headers: { Authorization: "Bearer {{token}}" }, statuses: [204], cleanup: true },
  ],
}).id;
