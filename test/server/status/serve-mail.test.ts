import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postMonitor } from "../../support/server";
import { eventually } from "../../support/target";
import { type Served, serveProcess } from "../replicas/serve";
import { type SunkMail, startMailSink } from "../../support/mail-sink";
import { useStarted } from "../../support/use-server";

const KEY = "uk_serve_mail_key_0123456789abcdef";
const RELAY_PASSWORD = "Relay-p@ss w0rd%+";

describe("uptime-server serve mails status page subscribers through the relay it is given, at the limits it is given", () => {
  const mails: SunkMail[] = [];
  const smtp = useStarted("the mail sink", () => startMailSink(mails));
  let dir: string;
  let served: Served;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "serve-mail-"));
    const relay = join(dir, "smtp.url");
    writeFileSync(relay, `smtp://relay:${encodeURIComponent(RELAY_PASSWORD)}@127.0.0.1:${smtp.port}\n`, {
      mode: 0o600,
    });
    served = await serveProcess(join(dir, "uptime.db"), KEY, [
      "--smtp-url-file",
      relay,
      "--smtp-from",
      "status@example.test",
      "--public-url",
      "https://status.example.test/",
      "--subscribe-limit-per-hour",
      "2",
      "--incident-rule-tick-sec",
      "1",
    ]);
  });
  afterAll(async () => {
    served?.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends the confirmation from --smtp-from, with links under --public-url, and never logs the relay's password", async () => {
    expect((await served.call("POST", "/api/v1/status-pages", { slug: "mailed", title: "Mailed" })).status).toBe(201);
    const res = await request(`${served.url}/status/mailed/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "reader@example.com" }),
    });
    expect(res.statusCode).toBe(202);
    await res.body.dump();
    const mail = await eventually(async () => mails[0], 15_000);
    expect(mail).toMatchObject({
      from: "status@example.test",
      to: ["reader@example.com"],
      user: "relay",
      pass: RELAY_PASSWORD,
    });
    const text = mail.data
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    expect(text).toMatch(/https:\/\/status\.example\.test\/status\/mailed\/confirm\?code=/);
    for (const spelling of [RELAY_PASSWORD, encodeURIComponent(RELAY_PASSWORD)])
      expect(served.log()).not.toContain(spelling);
  });

  it("--subscribe-limit-per-hour: the client's third request in the hour is refused with 429, and sends nothing", async () => {
    const subscribe = async (email: string) => {
      const res = await request(`${served.url}/status/mailed/subscribe`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
      return { status: res.statusCode, body: (await res.body.json()) as { error?: { code: string } } };
    };
    // The first test's request was the first of this client's two.
    expect((await subscribe("second@example.com")).status).toBe(202);
    await eventually(async () => mails.find((m) => m.to.includes("second@example.com")), 15_000);
    const third = await subscribe("third@example.com");
    expect(third).toMatchObject({ status: 429, body: { error: { code: "rate_limited" } } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mails.some((m) => m.to.includes("third@example.com"))).toBe(false);
  });

  it("--incident-rule-tick-sec: a component that goes down opens its rule's incident within a few ticks", async () => {
    // Nothing listens on port 9 of loopback: the check fails at once.
    const created = await postMonitor(served, { type: "http", url: "http://127.0.0.1:9/", interval_sec: 30 });
    expect(created.status, created.body).toBe(201);
    const monitorId = JSON.parse(created.body).data.id as string;
    const page = await served.call("POST", "/api/v1/status-pages", {
      slug: "ruled",
      title: "Ruled",
      monitor_ids: [monitorId],
      sections: [{ name: "Core", components: [{ key: "gone", name: "Gone", monitors: [monitorId] }] }],
      incident_rules: [{ component: "gone", minutes: 0, title: "{name} is down" }],
    });
    expect(page.status, page.body).toBe(201);
    const pageId = JSON.parse(page.body).data.id as string;
    const health = async () =>
      JSON.parse((await served.call("GET", `/api/v1/monitors/${monitorId}`)).body).data.health as string;
    await eventually(async () => ((await health()) === "down" ? true : undefined), 60_000);
    const downAt = Date.now();
    const open = await eventually(async () => {
      const list = JSON.parse((await served.call("GET", `/api/v1/status-pages/${pageId}/incidents?state=open`)).body)
        .data as { title: string }[];
      return list.length ? list : undefined;
    }, 30_000);
    // The default tick is 10 s; at one second the incident follows the down state within a tick or two.
    expect(Date.now() - downAt).toBeLessThan(3_000);
    expect(open).toMatchObject([{ title: "Gone is down" }]);
  });
});
