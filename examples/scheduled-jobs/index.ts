import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const site = config.require("siteUrl").replace(/\/+$/, "");

// The nightly backup must check in every day; an hour late is late enough to wake someone.
const backup = new uptime.Monitor("nightly-backup", {
  name: "Nightly backup",
  type: "heartbeat",
  intervalSec: 86_400,
  graceSec: 3_600,
  tags: ["jobs"],
});

// The site: alert 14 days before its certificate expires, and only after 3 failed checks in a row.
const homepage = new uptime.Monitor("homepage", {
  name: "Homepage",
  type: "http",
  url: `${site}/`,
  intervalSec: 60,
  sslExpiryDays: 14,
  confirmations: 3,
  recoveryConfirmations: 2,
  tags: ["web"],
});

// The site's name must resolve to exactly these addresses.
const dns = new uptime.Monitor("homepage-dns", {
  name: "Homepage DNS",
  type: "dns",
  url: `dns://${config.require("siteHost")}`,
  intervalSec: 300,
  dnsRecordType: "A",
  dnsExpectedValues: config.requireObject<string[]>("siteAddresses"),
  dnsResolver: config.require("resolver"),
  tags: ["network"],
});

// Sunday 02:00-03:00 Berlin time, every week: deploys happen then, and nobody is paged.
const sundays = new uptime.MaintenanceWindow("sunday-deploys", {
  name: "Sunday deploys",
  monitorIds: [homepage.id, dns.id],
  startsAt: "2026-01-04T01:00:00Z",
  endsAt: "2026-01-04T02:00:00Z",
  rrule: "FREQ=WEEKLY;BYDAY=SU",
  timeZone: "Europe/Berlin",
});

// The job's crontab line: the backup, then the ping that says it finished. `pushUrl` is a secret,
// so this output is too: `pulumi stack output crontab --show-secrets | crontab -`.
export const crontab = pulumi.interpolate`30 1 * * * /usr/local/bin/backup && curl -fsS -m 10 --retry 3 -o /dev/null ${backup.pushUrl}\n`;
export const monitorIds = { backup: backup.id, homepage: homepage.id, dns: dns.id };
export const maintenanceWindowId = sundays.id;
