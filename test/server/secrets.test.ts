import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Store } from "../../server/store";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { startServer } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const SECRETS = {
  hookToken: "hooktoken-5f1d2a9c7e",
  hookSecret: "whsec-8c1e77aa02",
  slackToken: "T000/B000/slacktoken-93bd",
  urlPassword: "urlpass-c0ffee42",
  header: "Bearer hdr-secret-7a7a7a",
  body: "body-secret-4242",
  idemBody: "idem-secret-1357",
  pagerDuty: "pdroutingkey0000000000000000a1b2",
  opsgenie: "0b1c2d3e-opsgenie-key-5555",
  teamsSig: "teamssig-77d1e0f3",
  discordToken: "discordtoken-ab12cd34",
  telegramToken: "4242424242:telegram-bot-secret-abcdefghijklmnop",
};

/** Every file of the database (db, -wal, -shm) and how often each secret occurs in them. */
function grepDatabase(db: string): Record<string, number> {
  const files = [db, `${db}-wal`, `${db}-shm`].filter(existsSync).map((f) => readFileSync(f));
  return Object.fromEntries(
    Object.values(SECRETS).map((secret) => [secret, files.reduce((n, buf) => n + countOf(buf, secret), 0)]),
  );
}

function countOf(buf: Buffer, needle: string): number {
  let count = 0;
  for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + 1)) count++;
  return count;
}

const zero = Object.fromEntries(Object.values(SECRETS).map((s) => [s, 0]));

describe("secrets at rest", () => {
  const inDir = useTempDir("secrets-");

  it("stores no secret in plaintext in the database, WAL or shared-memory file, all of them 0600", async () => {
    const db = inDir("u.db");
    const s = await startServer({ db });
    try {
      const hook = await s.call("POST", "/api/v1/channels", {
        name: "hook",
        type: "webhook",
        config: { url: `https://hooks.example.com/${SECRETS.hookToken}`, secret: SECRETS.hookSecret },
      });
      expect(hook.status).toBe(201);
      const slack = await s.call("POST", "/api/v1/channels", {
        name: "slack",
        type: "slack",
        config: { webhook_url: `https://hooks.slack.com/services/${SECRETS.slackToken}` },
      });
      expect(slack.status).toBe(201);
      const vendors = [
        { type: "pagerduty", config: { routing_key: SECRETS.pagerDuty } },
        { type: "opsgenie", config: { api_key: SECRETS.opsgenie, region: "eu" } },
        {
          type: "teams",
          config: {
            webhook_url: `https://prod-01.westus.logic.azure.com/workflows/1/triggers/manual/paths/invoke?sig=${SECRETS.teamsSig}`,
          },
        },
        { type: "discord", config: { webhook_url: `https://discord.com/api/webhooks/1/${SECRETS.discordToken}` } },
        { type: "telegram", config: { bot_token: SECRETS.telegramToken, chat_id: "-100123" } },
      ];
      for (const v of vendors) {
        const created = await s.call("POST", "/api/v1/channels", { name: v.type, ...v });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        expect(JSON.stringify(created.body)).not.toMatch(
          /pdroutingkey|opsgenie-key|teamssig|discordtoken|telegram-bot-secret/,
        );
      }
      const monitor = await s.call(
        "POST",
        "/api/v1/monitors",
        {
          name: "m",
          type: "http",
          method: "POST",
          url: `https://user:${SECRETS.urlPassword}@api.example.com/x`,
          headers: { authorization: SECRETS.header },
          body: SECRETS.body,
          interval_sec: 60,
          channel_ids: [hook.body.data.id],
        },
        { headers: { "idempotency-key": "create-1" } },
      );
      expect(monitor.status).toBe(201);
      const patched = await s.call("PATCH", `/api/v1/monitors/${monitor.body.data.id}`, { body: `${SECRETS.body}-2` });
      expect(patched.body.data.body).toBe(`${SECRETS.body}-2`);
      await s.call(
        "POST",
        "/api/v1/channels",
        { name: "i", type: "webhook", config: { url: `https://h.example.com/${SECRETS.idemBody}` } },
        {
          headers: { "idempotency-key": "create-2" },
        },
      );
      // The server still reads its secrets back: the header (write-only) as the fingerprint of the value it was created with.
      expect(monitor.body.data.headers.authorization).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
      expect((await s.call("GET", `/api/v1/monitors/${monitor.body.data.id}`)).body.data).toMatchObject({
        url: `https://user:${SECRETS.urlPassword}@api.example.com/x`,
        headers: { authorization: monitor.body.data.headers.authorization },
      });
      const found = grepDatabase(db);
      console.log(`plaintext secrets in ${db}{,-wal,-shm} while running: ${JSON.stringify(found)}`);
      expect(found).toEqual(zero);
      for (const file of [db, `${db}-wal`, `${db}-shm`, `${db}.key`]) {
        expect((statSync(file).mode & 0o777).toString(8), file).toBe("600");
      }
    } finally {
      await s.close();
    }
    expect(grepDatabase(db)).toEqual(zero);
  });

  it("reseals rows stored in plaintext by an older version, and after `keys rotate-secret`", async () => {
    const db = inDir("u.db");
    const first = await Store.open(db);
    const account = await first.keys.create("acme", null);
    const accountId = (await first.keys.authenticate(account.key))?.accountId as string;
    await first.db
      .prepare(
        "INSERT INTO channels (id, account_id, name, type, config, created_at, updated_at) VALUES ('chn_1', ?, 'old', 'webhook', ?, 'x', 'x')",
      )
      .run(accountId, JSON.stringify({ url: `https://hooks.example.com/${SECRETS.hookToken}` }));
    await first.close();
    const second = await Store.open(db);
    expect((await second.channels.stored(accountId, "chn_1"))?.config).toEqual({
      url: `https://hooks.example.com/${SECRETS.hookToken}`,
    });
    await second.close();
    expect(grepDatabase(db)[SECRETS.hookToken]).toBe(0);

    const before = readFileSync(`${db}.key`, "utf8");
    execFileSync(
      join(REPO_ROOT, "node_modules/.bin/node"),
      [join(REPO_ROOT, "dist/server/cli.js"), "keys", "rotate-secret", "--db", db],
      { stdio: "pipe" },
    );
    const after = readFileSync(`${db}.key`, "utf8");
    expect(after.trim().split("\n")).toHaveLength(2);
    expect(after.endsWith(before)).toBe(true);
    const newId = after.split(" ")[0] as string;
    const third = await Store.open(db);
    try {
      const row = (await third.db.prepare("SELECT config FROM channels WHERE id = 'chn_1'").get()) as {
        config: string;
      };
      expect(row.config.startsWith(`enc1.${newId}.`)).toBe(true);
      expect((await third.channels.stored(accountId, "chn_1"))?.config).toHaveProperty(
        "url",
        `https://hooks.example.com/${SECRETS.hookToken}`,
      );
    } finally {
      await third.close();
    }
  });
});
